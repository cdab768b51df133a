/**
 * The offline agent's playbook. It is a pure function of what the model can see in its prompt (the
 * latest user message and the tool results that followed it), so it keeps working after the history
 * before that point has been compacted away, and after a server restart.
 */

export interface ToolStep {
  toolName: string;
  input: Record<string, unknown>;
  /** The tool's output as text (error outputs included). */
  output: string;
  isError: boolean;
}

export interface TurnContext {
  /** Text of the latest user message. */
  userText: string;
  /** Tool calls and results since the latest user message, oldest first. */
  steps: ToolStep[];
}

export type AgentAction =
  | { type: 'tool'; toolName: string; input: Record<string, unknown> }
  | { type: 'text'; text: string };

interface TaskScript {
  steps: Array<(results: ToolStep[]) => AgentAction | undefined>;
  summary: (results: ToolStep[]) => string;
}

const TODO_FILE = 'TODO.md';

function call(toolName: string, input: Record<string, unknown>): AgentAction {
  return { type: 'tool', toolName, input };
}

function runNode(...args: string[]): AgentAction {
  return call('run_command', { command: 'node', args });
}

/** Reads `node --test` output: counts and the names of failing tests. */
export function readTestOutput(output: string): {
  pass: number | undefined;
  fail: number | undefined;
  failing: string[];
  exitCode: number | undefined;
} {
  const number = (pattern: RegExp) => {
    const match = pattern.exec(output);
    return match ? Number(match[1]) : undefined;
  };
  const failing = [
    ...new Set(
      [...output.matchAll(/^\s*(?:not ok \d+ - |✖ )(.+?)(?: \([\d.]+m?s\))?$/gm)].map((match) =>
        match[1]!.trim(),
      ),
    ),
  ].filter((name) => !name.endsWith('.js'));
  return {
    pass: number(/^# pass (\d+)/m) ?? number(/^ℹ pass (\d+)/m),
    fail: number(/^# fail (\d+)/m) ?? number(/^ℹ fail (\d+)/m),
    failing,
    exitCode: number(/^exit code (\d+)/m),
  };
}

function describeTests(step: ToolStep | undefined): string {
  if (!step) return 'the test run did not happen';
  if (step.isError) return `the test run failed to start (${firstLine(step.output)})`;
  const { pass, fail, failing, exitCode } = readTestOutput(step.output);
  if (pass === undefined && fail === undefined) {
    const problem = step.output.split('\n').find((line) => /Error/.test(line));
    return `the run exited with code ${exitCode ?? '?'}${problem ? `: \`${problem.trim()}\`` : ''}`;
  }
  const syntaxError = step.output.split('\n').find((line) => line.startsWith('SyntaxError'));
  if (syntaxError) return `${fail ?? 0} failed with \`${syntaxError.trim()}\``;
  const names =
    failing.length > 0 ? ` (failing: ${failing.map((name) => `“${name}”`).join(', ')})` : '';
  return `${pass ?? 0} passed, ${fail ?? 0} failed${names}`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

function outcome(step: ToolStep | undefined): string {
  if (!step) return 'not run';
  return step.isError ? `failed: ${firstLine(step.output)}` : firstLine(step.output);
}

const INVENTORY_GUARD =
  "  remove(sku, quantity) {\n    const onHand = this.quantity(sku);\n    if (quantity > onHand) {\n      throw new RangeError('not enough stock for ' + sku + ': ' + onHand + ' on hand, ' + quantity + ' requested');\n    }\n    this.stock.set(sku, onHand - quantity);";

const REPORT_SOURCE = `import { parseSku } from './sku.js';
import { formatPrice } from './price.js';

/** Renders stock rows grouped by category, with the value of each line and a total. */
export function renderReport(rows) {
  const byCategory = new Map();
  for (const row of rows) {
    const { category } = parseSku(row.sku);
    if (!byCategory.has(category)) byCategory.set(category, []);
    byCategory.get(category).push(row);
  }
  const lines = [];
  let total = 0;
  for (const [category, categoryRows] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(category);
    for (const row of categoryRows) {
      const value = row.quantity * row.cents;
      total += value;
      lines.push('  ' + row.sku.padEnd(10) + String(row.quantity).padStart(5) + formatPrice(row.cents).padStart(10) + formatPrice(value).padStart(12));
    }
  }
  lines.push('TOTAL'.padEnd(27) + formatPrice(total).padStart(12));
  return lines.join('\\n');
}
`;

const SKU_TEST_SOURCE = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSku } from '../src/sku.js';

test('rejects malformed SKUs', () => {
  for (const bad of ['TEA42', 'tea-0042', 'TEA-42', 'TEAS-0042', '']) {
    assert.throws(() => parseSku(bad), /invalid SKU/);
  }
});

test('still parses well-formed SKUs', () => {
  assert.deepEqual(parseSku('POT-0003'), { category: 'POT', number: 3 });
});
`;

const TASKS: Record<string, TaskScript> = {
  'Run the test suite and triage the failures': {
    steps: [
      () => call('list_files', { path: '.' }),
      () => runNode('--test'),
      () => call('read_file', { path: 'test/price.test.js' }),
      () => call('read_file', { path: 'src/price.js' }),
      () => call('read_file', { path: 'test/inventory.test.js' }),
      () => call('read_file', { path: 'src/inventory.js' }),
    ],
    summary: (results) =>
      `I ran the whole suite: ${describeTests(results[1])}.\n\n` +
      'Triage:\n' +
      '1. `formatPrice` derives the cents with `Math.round((absolute / 100 - units) * 10)`, which keeps a single digit, so `1999` renders as `$19.10`.\n' +
      '2. `Inventory.remove` subtracts without checking what is on hand, so stock can go negative and the “not enough stock” test fails.\n\n' +
      'Both are next on TODO.md.',
  },
  'Fix the rounding bug in formatPrice': {
    steps: [
      () => call('read_file', { path: 'src/price.js' }),
      () =>
        call('edit_file', {
          path: 'src/price.js',
          find: '  const fraction = Math.round((absolute / 100 - units) * 10);',
          replace: '  const fraction = absolute % 100;',
        }),
      () => runNode('--test', 'test/price.test.js'),
    ],
    summary: (results) =>
      `Edited \`src/price.js\` (${outcome(results[1])}): the fraction is now \`absolute % 100\`, exact integer arithmetic. ` +
      `Price tests: ${describeTests(results[2])}.`,
  },
  'Stop Inventory.remove from driving stock negative': {
    steps: [
      () => call('read_file', { path: 'src/inventory.js' }),
      () => call('search', { pattern: 'remove(', path: '.' }),
      // A realistic slip: the parameter is called `quantity`, not `qty`, so this edit fails.
      () =>
        call('edit_file', {
          path: 'src/inventory.js',
          find: '  remove(sku, qty) {',
          replace: '  remove(sku, qty) {\n    // guarded below',
        }),
      () =>
        call('edit_file', {
          path: 'src/inventory.js',
          find: '  remove(sku, quantity) {\n    this.stock.set(sku, this.quantity(sku) - quantity);',
          replace: INVENTORY_GUARD,
        }),
      () => runNode('--test', 'test/inventory.test.js'),
    ],
    summary: (results) =>
      `My first edit missed (${outcome(results[2])}: the parameter is \`quantity\`, not \`qty\`). ` +
      `The second one landed (${outcome(results[3])}): \`remove\` now throws a \`RangeError\` naming the SKU, what is on hand and what was requested. ` +
      `Inventory tests: ${describeTests(results[4])}.`,
  },
  'Validate SKUs in parseSku': {
    steps: [
      () => call('read_file', { path: 'src/sku.js' }),
      () =>
        call('edit_file', {
          path: 'src/sku.js',
          find: "  const [category, digits] = text.split('-');",
          replace:
            "  if (!/^[A-Z]{3}-\\d{4}$/.test(text) {\n    throw new RangeError('invalid SKU: ' + text);\n  }\n  const [category, digits] = text.split('-');",
        }),
      () => runNode('--test', 'test/sku.test.js'),
      (results) =>
        results[2] && readTestOutput(results[2].output).exitCode !== 0
          ? call('edit_file', {
              path: 'src/sku.js',
              find: '.test(text) {',
              replace: '.test(text)) {',
            })
          : undefined,
      () => runNode('--test'),
    ],
    summary: (results) =>
      `I added a format check to \`parseSku\`, but the first run broke: ${describeTests(results[2])}. ` +
      'I had left out a closing parenthesis in the `if`; fixed it' +
      (results[3] ? ` (${outcome(results[3])})` : '') +
      `. Whole suite now: ${describeTests(results[4])}.`,
  },
  'Resolve the TODO comments in src/report.js': {
    steps: [
      () => call('search', { pattern: 'TODO', path: 'src' }),
      () => call('read_file', { path: 'src/report.js' }),
      () => call('write_file', { path: 'src/report.js', content: REPORT_SOURCE }),
      () => runNode('scripts/report.js'),
    ],
    summary: (results) =>
      `Found ${results[0]?.output.split('\n').filter((line) => line.includes('TODO')).length ?? 0} TODO comments in \`src/report.js\` and resolved both: ` +
      'rows are grouped by category and each line shows its value, with a total at the end. ' +
      `The report script ${readTestOutput(results[3]?.output ?? '').exitCode === 0 ? 'runs cleanly' : 'failed'}.`,
  },
  'Add a regression test for parseSku': {
    steps: [
      () => call('write_file', { path: 'test/sku-validation.test.js', content: SKU_TEST_SOURCE }),
      () => runNode('--test'),
    ],
    summary: (results) =>
      `Added \`test/sku-validation.test.js\` (five malformed SKUs must throw, a good one still parses). Suite: ${describeTests(results[1])}.`,
  },
  'Generate the stock report': {
    steps: [
      () => call('read_file', { path: 'data/stock.csv' }),
      () => runNode('scripts/report.js'),
      () => call('run_command', { command: 'wc', args: ['-l', 'data/stock.csv'] }),
    ],
    summary: (results) => {
      const report = (results[1]?.output ?? '').split('\n').slice(2).join('\n').trim();
      return `Here is the current stock report:\n\n\`\`\`\n${report}\n\`\`\``;
    },
  },
  'Update the CHANGELOG': {
    steps: [
      () => call('read_file', { path: 'CHANGELOG.md' }),
      () =>
        call('edit_file', {
          path: 'CHANGELOG.md',
          find: '# Changelog\n',
          replace:
            '# Changelog\n\n## 0.4.0\n\n- formatPrice keeps both decimal places.\n- Inventory.remove refuses to go below zero.\n- parseSku validates the SKU format.\n- The stock report is grouped by category and shows stock value.\n',
        }),
      () => call('read_file', { path: 'package.json' }),
      () =>
        call('edit_file', {
          path: 'package.json',
          find: '"version": "0.3.0"',
          replace: '"version": "0.4.0"',
        }),
    ],
    summary: (results) =>
      `CHANGELOG has a 0.4.0 entry (${outcome(results[1])}) and package.json is bumped (${outcome(results[3])}).`,
  },
};

const REVIEW_FILES = ['src/price.js', 'src/inventory.js', 'src/sku.js', 'src/report.js'];

/** Tasks for a review round, added once the original list is done, so the session can go on forever. */
function reviewRound(round: number): string[] {
  const file = REVIEW_FILES[(round - 1) % REVIEW_FILES.length]!;
  return [
    `Review ${file} (round ${round})`,
    `Search for console.log (round ${round})`,
    `Run the whole suite (round ${round})`,
  ];
}

function reviewTask(title: string): TaskScript | undefined {
  const review = /^Review (\S+)/.exec(title);
  if (review) {
    const file = review[1]!;
    return {
      steps: [
        () => call('read_file', { path: file }),
        () => call('search', { pattern: 'export', path: file }),
        () => runNode('--test'),
      ],
      summary: (results) =>
        `Reviewed \`${file}\`: ${results[0]?.output.split('\n').length ?? 0} lines, ` +
        `${results[1]?.output.split('\n').filter((line) => line.includes('export')).length ?? 0} exports. Tests: ${describeTests(results[2])}.`,
    };
  }
  const search = /^Search for (\S+)/.exec(title);
  if (search) {
    return {
      steps: [() => call('search', { pattern: search[1]!, path: '.' })],
      summary: (results) =>
        `Searched for \`${search[1]}\`: ${firstLine(results[0]?.output ?? '')}.`,
    };
  }
  if (title.startsWith('Run the whole suite')) {
    return {
      steps: [() => runNode('--test')],
      summary: (results) => `Full suite: ${describeTests(results[0])}.`,
    };
  }
  return undefined;
}

/** Open and done items of TODO.md. */
export function parseTodo(text: string): { open: string[]; done: string[]; rounds: number } {
  const open: string[] = [];
  const done: string[] = [];
  for (const match of text.matchAll(/^- \[( |x)\] (.+)$/gm)) {
    (match[1] === 'x' ? done : open).push(match[2]!.trim());
  }
  return { open, done, rounds: [...text.matchAll(/^## Review round/gm)].length };
}

function acknowledge(userText: string): string {
  const text = userText.trim();
  if (text === '' || /^(continue|go on|next|go|ok|okay|keep going)\.?$/i.test(text)) return '';
  const quoted = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  return `(You wrote “${quoted}”. I am the scripted offline agent, so I keep working through TODO.md; configure a real model to chat freely.)\n\n`;
}

/** Decides the agent's next action from what it can see of the current turn. */
export function planNextAction(context: TurnContext): AgentAction {
  const { steps } = context;
  const todoRead = steps[0];
  if (!todoRead) return call('read_file', { path: TODO_FILE });
  if (todoRead.toolName !== 'read_file' || todoRead.isError) {
    return {
      type: 'text',
      text: `${acknowledge(context.userText)}I could not read ${TODO_FILE} (${firstLine(todoRead.output)}), so I have no plan to follow. Reset the demo to get a fresh workspace.`,
    };
  }
  const todo = parseTodo(todoRead.output);
  const title = todo.open[0];
  if (title === undefined) {
    const round = todo.rounds + 1;
    if (steps.length === 1) {
      const tasks = reviewRound(round);
      return call('edit_file', {
        path: TODO_FILE,
        find: todoRead.output.trimEnd(),
        replace: `${todoRead.output.trimEnd()}\n\n## Review round ${round}\n\n${tasks.map((task) => `- [ ] ${task}`).join('\n')}`,
      });
    }
    return {
      type: 'text',
      text: `${acknowledge(context.userText)}Everything on ${TODO_FILE} is done, so I added review round ${round} to it (${outcome(steps[1])}). Press Continue to start it.`,
    };
  }
  const script = TASKS[title] ?? reviewTask(title);
  if (!script) {
    return {
      type: 'text',
      text: `${acknowledge(context.userText)}The next item on ${TODO_FILE} is “${title}”, which is not in my script. Edit TODO.md in the workspace or reset the demo.`,
    };
  }
  const results = steps.slice(1);
  // Steps may decline (return undefined) when their precondition does not hold; each position in the
  // script is consumed by exactly one tool result, so skipped steps are recorded as absent.
  const taskResults: Array<ToolStep | undefined> = [];
  let resultIndex = 0;
  for (const step of script.steps) {
    const action = step(positional(taskResults));
    if (action === undefined) {
      taskResults.push(undefined);
    } else if (resultIndex < results.length) {
      taskResults.push(results[resultIndex]);
      resultIndex++;
    } else {
      return action;
    }
  }
  const markDone = results[resultIndex];
  if (!markDone) {
    return call('edit_file', {
      path: TODO_FILE,
      find: `- [ ] ${title}`,
      replace: `- [x] ${title}`,
    });
  }
  const remaining = todo.open.length - 1;
  return {
    type: 'text',
    text:
      `${acknowledge(context.userText)}**${title}**\n\n${script.summary(positional(taskResults))}\n\n` +
      (remaining > 0
        ? `Ticked it off in ${TODO_FILE}; ${remaining} item${remaining === 1 ? '' : 's'} left. Next: “${todo.open[1]}”.`
        : `Ticked it off in ${TODO_FILE}; that was the last item.`),
  };
}

/** Script steps index results by position; a skipped step leaves a hole. */
function positional(results: Array<ToolStep | undefined>): ToolStep[] {
  return results as ToolStep[];
}
