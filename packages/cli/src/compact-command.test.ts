import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolPairProblems } from '@baton/compressor/test';
import { corpusDir, corpusSkipReason } from '@baton/test-corpus';
import { createTokenCounter } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './index.js';
import { runBuiltCli } from './test-utils/run-built-cli.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const temporaryFolder = () => mkdtempSync(join(tmpdir(), 'baton-compact-'));

interface FileReport {
  file: string;
  format: string;
  output: string | null;
  error?: string;
  cannotFit?: { targetTokens: number; requiredTokens: number; headTokens: number };
  report: {
    strategy: string;
    stages: string[];
    tokensBefore: number;
    tokensAfter: number;
    target: number;
    overTarget: boolean;
    messagesBefore: number;
    messagesAfter: number;
    head: number;
    tail: number;
    middle: { messages: number; removed: number; masked: number };
    sections: string[];
    summary: string | undefined;
    usedFallback: boolean;
    fallbackReason: string | undefined;
    valid: boolean;
    problems: unknown[];
    inputProblems: unknown[];
  };
}

describe.skipIf(corpusSkipReason !== undefined)(
  'baton compact on the dev corpus (built binary)',
  () => {
    const folder = corpusDir() ? join(corpusDir()!, 'transcripts', 'dev') : '';
    const files = corpusDir()
      ? readdirSync(folder)
          .filter((file) => file.endsWith('.json'))
          .sort()
          .map((file) => join(folder, file))
      : [];
    // 16k tokens: every dev transcript's head and protected tail fit half of it, most of them do not fit whole.
    const window = 16_000;
    const target = 8_000;

    it.each(['receipt', 'truncate', 'mask', 'auto'])(
      'compacts every transcript with --strategy %s',
      async (strategy) => {
        const out = temporaryFolder();
        const run = await runBuiltCli([
          'compact',
          ...files,
          '--window',
          '16k',
          '--strategy',
          strategy,
          '--out',
          out,
          '--json',
        ]);
        expect(run.stderr).toBe('');
        const document = JSON.parse(run.stdout) as {
          target: number;
          window: number;
          files: FileReport[];
          totals: { failed: number; cannotFit: number };
        };
        expect(document).toMatchObject({ window, target, totals: { failed: 0 } });
        expect(document.files.map((entry) => entry.file)).toEqual(files);

        const counter = createTokenCounter({ model: 'gpt-4o' });
        // The expected exceptions come from the data, whatever the files are called: a transcript
        // whose verbatim minimum (its leading system messages and its latest user ask) is over the
        // target cannot fit; one whose minimum with the latest reply and trailing messages is under
        // half the target must be compacted. In between either is allowed, but only with figures
        // that prove it.
        const mustNotFit = new Set<string>();
        const mustFit = new Set<string>();
        const floors = new Map<string, number>();
        for (const file of files) {
          const messages = parseTranscript(readFileSync(file, 'utf8'), { file }).messages;
          const system = messages.slice(
            0,
            Math.max(
              0,
              messages.findIndex((message) => message.role !== 'system'),
            ),
          );
          const lastUser = messages.findLastIndex((message) => message.role === 'user');
          const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
          const ask = lastUser >= 0 ? [messages[lastUser]!] : [];
          const floor = counter.countMessages([...system, ...ask]);
          const latestTurn = messages.slice(Math.max(lastAssistant, lastUser + 1, system.length));
          const upper = counter.countMessages([...system, ...ask, ...latestTurn]);
          floors.set(file, floor);
          if (floor > target) mustNotFit.add(file);
          else if (upper <= target / 2) mustFit.add(file);
        }
        const exceptions = document.files.filter((entry) => entry.cannotFit !== undefined);
        expect(document.totals.cannotFit).toBe(exceptions.length);
        expect(run.code, run.stderr).toBe(exceptions.length > 0 ? 3 : 0);
        for (const file of mustNotFit) {
          expect(exceptions.map((entry) => entry.file)).toContain(file);
        }

        let compacted = 0;
        for (const entry of document.files) {
          const { report } = entry;
          const name = basename(entry.file);
          if (entry.cannotFit !== undefined) {
            expect(mustFit.has(entry.file), `${name} fits but was reported as cannot fit`).toBe(
              false,
            );
            expect(entry.output, name).toBeNull();
            expect(existsSync(join(out, name)), name).toBe(false);
            expect(entry.cannotFit.targetTokens).toBe(target);
            expect(entry.cannotFit.requiredTokens, name).toBeGreaterThan(target);
            expect(entry.cannotFit.requiredTokens, name).toBeGreaterThanOrEqual(
              floors.get(entry.file)!,
            );
            continue;
          }
          expect(entry.output, name).toBe(join(out, name));
          const written = parseTranscript(readFileSync(entry.output!, 'utf8'), {
            file: entry.output!,
          });
          expect(written.format).toBe('ai-sdk');
          const input = JSON.parse(readFileSync(entry.file, 'utf8'));
          // Pairing: no problem the input did not already have.
          // A transcript may end while its last tools run: those calls are open, not broken.
          const open = { allowOpenCalls: true };
          expect(toolPairProblems(written.messages, open).length, name).toBeLessThanOrEqual(
            toolPairProblems(input, open).length,
          );
          expect(report.problems.length, name).toBeLessThanOrEqual(report.inputProblems.length);
          expect(written.messages).toHaveLength(report.messagesAfter);
          // The figures are the counter's own.
          expect(report.tokensBefore, name).toBe(counter.countMessages(input));
          expect(report.tokensAfter, name).toBe(counter.countMessages(written.messages));
          expect(report.tokensAfter).toBeLessThanOrEqual(report.tokensBefore);
          expect(report.head + report.middle.messages + report.tail).toBe(report.messagesBefore);

          if (report.strategy === 'none') {
            expect(report.tokensBefore, name).toBeLessThanOrEqual(target);
            expect(written.messages).toEqual(input);
            continue;
          }
          compacted++;
          if (strategy === 'auto') {
            expect(['mask', 'receipt']).toContain(report.strategy);
            // Without a summariser, auto goes mask -> receipt and says so; stages lists only what
            // ran (mask is skipped when it could not fit even at its best; never summarize).
            if (report.strategy === 'receipt') {
              expect(report.usedFallback, name).toBe(true);
              expect(report.fallbackReason, name).toMatch(/summari[sz]er/i);
              expect(report.stages, name).not.toContain('summarize');
              expect([['mask', 'receipt'], ['receipt']], name).toContainEqual(report.stages);
            }
          } else {
            expect(report.strategy, name).toBe(strategy);
          }
          if (report.strategy === 'mask') {
            expect(report.middle.removed).toBe(0);
            expect(report.middle.masked).toBeGreaterThan(0);
          } else {
            expect(report.tokensAfter, name).toBeLessThanOrEqual(target);
            expect(report.overTarget).toBe(false);
            expect(report.middle.removed).toBeGreaterThan(0);
          }
          if (report.strategy === 'receipt') {
            expect(report.sections.length, name).toBeGreaterThan(0);
            const inserted = written.messages.some((message) =>
              JSON.stringify(message.content).includes(JSON.stringify(report.summary).slice(1, -1)),
            );
            expect(inserted, `${name}: receipt in the output`).toBe(true);
          }
        }
        counter.dispose();
        expect(compacted).toBeGreaterThan(files.length / 2);
        if (strategy === 'auto') {
          expect(document.files.some((entry) => entry.report?.strategy === 'receipt')).toBe(true);
        }
      },
    );

    it('prints a table for several files and a progress line per file on a non-terminal stderr', async () => {
      const run = await runBuiltCli(['compact', ...files.slice(0, 3), '--window', '16k']);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(
        /^file +before +after +saved +strategy +fallback +sections +tool pairs$/,
      );
      expect(lines).toHaveLength(1 + 3 + 2);
      expect(lines.at(-2)).toMatch(
        /^total: 3 files, 0 failed, [\d,]+ -> [\d,]+ tokens; nothing written \(no --out\)$/,
      );
      expect(run.stderr.trimEnd().split('\n')).toEqual(
        files
          .slice(0, 3)
          .map((file, index) =>
            expect.stringMatching(
              new RegExp(`^\\[${index + 1}/3\\] ${file}: [\\d,]+ -> [\\d,]+ tokens \\(\\w+\\)$`),
            ),
          ),
      );
    });
  },
);

describe('baton compact (built binary)', () => {
  const session = join(fixtures, 'claude-code-session.jsonl');

  it('reports one file in full and writes nothing without --out', async () => {
    const run = await runBuiltCli([
      'compact',
      session,
      '--window',
      '400',
      '--target',
      '200',
      '--keep-last',
      '0',
      '--strategy',
      'truncate',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        [
          `^${session} \\(claude-code\\)`,
          '  tokens     [\\d,]+ -> [\\d,]+ \\(-\\d+%\\)',
          '  messages   7 -> \\d+',
          '  strategy   truncate',
          '  fallback   no',
          '  split      head 1, middle 5 \\(\\d removed, 0 masked\\), tail 1',
          '  sections   none',
          '  validity   ok: every tool call answered and every result paired',
          '  warning    line 21: dropped tool result toolu_01 \\(its call is not in the transcript\\)',
          '  written    nothing \\(no --out\\)',
          '\\(gpt-4o, o200k_base; window 400, target 200\\)\n$',
        ].join('\n'),
      ),
    );
  });

  it('writes AI SDK JSON for Claude Code input and OpenAI JSON for OpenAI input', async () => {
    const out = temporaryFolder();
    const run = await runBuiltCli([
      'compact',
      session,
      join(fixtures, 'openai-chat.json'),
      '-o',
      out,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['claude-code-session.json', 'openai-chat.json']);
    const claude = parseTranscript(readFileSync(join(out, 'claude-code-session.json'), 'utf8'));
    expect(claude.format).toBe('ai-sdk');
    expect(claude.messages[0]).toMatchObject({
      role: 'user',
      content: expect.stringMatching(/^This session is being continued/),
    });
    const openAI = JSON.parse(readFileSync(join(out, 'openai-chat.json'), 'utf8'));
    expect(openAI[2]).toMatchObject({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1' }, { id: 'call_2' }],
    });
    expect(parseTranscript(JSON.stringify(openAI)).format).toBe('openai-chat');
  });

  it('writes the messages to stdout with --out - and the report to stderr', async () => {
    const run = await runBuiltCli([
      'compact',
      session,
      '--out',
      '-',
      '--output-format',
      'openai-chat',
      '--full-history',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const messages = JSON.parse(run.stdout);
    expect(messages[0]).toEqual({ role: 'user', content: expect.stringMatching(/rounding error/) });
    expect(run.stderr).toMatch(/^ {2}written {4}stdout$/m);
  });

  it('reports a transcript whose verbatim parts cannot fit the target, writes the others, exits 3', async () => {
    const folder = temporaryFolder();
    const words = (count: number) =>
      Array.from({ length: count }, () => randomBytes(4).toString('hex')).join(' ');
    const turns = Array.from({ length: 12 }, (_, index) => [
      { role: 'user', content: `step ${index}: ${words(60)}` },
      { role: 'assistant', content: `done ${index}: ${words(60)}` },
    ]).flat();
    const big = join(folder, 'big-system.json');
    writeFileSync(big, JSON.stringify([{ role: 'system', content: words(900) }, ...turns]));
    const small = join(folder, 'small-system.json');
    writeFileSync(small, JSON.stringify([{ role: 'system', content: 'Be brief.' }, ...turns]));
    const out = join(folder, 'out');
    const args = ['compact', big, small, '--window', '6k', '--target', '2k', '--out', out];
    const run = await runBuiltCli([...args, '--strategy', 'truncate']);
    expect(run.code, run.stderr).toBe(3);
    expect(readdirSync(out)).toEqual(['small-system.json']);
    expect(run.stdout).toMatch(
      new RegExp(
        `^cannot fit: ${big}: the (?:head|system messages) \\([\\d,]+\\) and the latest turn \\([\\d,]+\\) need [\\d,]+ tokens with the smallest insert, over the target 2,000; nothing written \\(raise --target or --window\\)$`,
        'm',
      ),
    );
    expect(run.stdout).toMatch(/^big-system\.json +- +- +- +cannot fit /m);
    expect(run.stdout).toMatch(/^total: 2 files, 0 failed, 1 cannot fit, /m);
    expect(run.stderr).toMatch(/^\[1\/2\] .*big-system\.json: cannot fit: /m);

    const json = await runBuiltCli([...args, '--json']);
    expect(json.code).toBe(3);
    const document = JSON.parse(json.stdout) as {
      files: FileReport[];
      totals: { failed: number; cannotFit: number };
    };
    expect(document.totals).toMatchObject({ failed: 0, cannotFit: 1 });
    expect(document.files[0]!.cannotFit!.requiredTokens).toBeGreaterThan(2_000);
    expect(document.files[1]!.cannotFit).toBeUndefined();
  });

  describe('bad input: one line naming the file, exit code 2, nothing written', () => {
    const folder = temporaryFolder();
    const good = join(fixtures, 'openai-chat.json');
    const files = {
      invalidJson: join(folder, 'broken.json'),
      unknownFormat: join(folder, 'unknown.json'),
      badJsonl: join(folder, 'broken.jsonl'),
    };
    writeFileSync(files.invalidJson, '[{"role": "user", "content": "hi"');
    writeFileSync(files.unknownFormat, '{"conversation": []}');
    writeFileSync(
      files.badJsonl,
      `${readFileSync(session, 'utf8').split('\n').slice(0, 2).join('\n')}\n{oops\n`,
    );

    it.each([
      [
        'a missing file',
        [join(folder, 'missing.json')],
        /^baton: .*missing\.json: cannot read file: no such file$/,
      ],
      ['a folder', [folder], /^baton: .*: cannot read file: is a directory, not a file$/],
      ['invalid JSON', [files.invalidJson], /^baton: .*broken\.json: invalid JSON: /],
      [
        'an unknown format',
        [files.unknownFormat],
        /^baton: .*unknown\.json: unknown format: expected a JSON array of messages/,
      ],
      ['a broken JSONL line', [files.badJsonl], /^baton: .*broken\.jsonl: line 3: invalid JSON/],
      [
        'an unknown flag',
        ['--frobnicate'],
        /^baton: unknown option \(a 12-character name, not shown\) \(see baton --help\)$/,
      ],
      [
        'a bad flag value',
        ['--window', 'lots'],
        /^baton: --window: expected a positive number of tokens \(e\.g\. 32000 or 32k\); got a 4-character value \(not shown\)/,
      ],
      [
        'summarize without a summariser',
        ['--strategy', 'summarize'],
        /^baton: --strategy summarize needs --summarizer/,
      ],
      [
        'a summariser without its key',
        ['--summarizer', 'openai:gpt-4o-mini'],
        /^baton: --summarizer openai:… needs OPENAI_API_KEY/,
      ],
      [
        'an unknown summariser provider',
        ['--summarizer', 'acme:big'],
        /^baton: --summarizer: unknown provider \(expected openai, anthropic, openai-compatible\); got a 8-character value \(not shown\)/,
      ],
    ])('%s', async (_, extra, expected) => {
      const out = join(temporaryFolder(), 'out');
      // The good file comes first: nothing may be written for it either.
      const run = await runBuiltCli(['compact', good, ...extra, '--out', out], {
        env: { OPENAI_API_KEY: '' },
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(run.stderr.trimEnd()).toMatch(expected);
      expect(existsSync(out)).toBe(false);
    });

    it('refuses two inputs that would be written to the same file', async () => {
      const other = join(temporaryFolder(), 'openai-chat.json');
      writeFileSync(other, readFileSync(good));
      const out = join(temporaryFolder(), 'out');
      const run = await runBuiltCli(['compact', good, other, '--out', out]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/would both be written to/);
      expect(existsSync(out)).toBe(false);
    });
  });
});

describe('baton compact: problems of the input and settings it had to bend (built binary)', () => {
  const folder = temporaryFolder();
  const orphan = join(folder, 'orphan-result.json');
  writeFileSync(
    orphan,
    JSON.stringify([
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_9',
            toolName: 'read_file',
            output: { type: 'text', value: 'contents' },
          },
        ],
      },
    ]),
  );
  const trailingCall = join(folder, 'trailing-call.json');
  writeFileSync(
    trailingCall,
    JSON.stringify([
      { role: 'user', content: 'Read the file.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'a' } },
        ],
      },
    ]),
  );

  it('accepts input with an orphan tool result, writes it, and reports the problem as the input’s', async () => {
    const out = join(temporaryFolder(), 'out.json');
    const run = await runBuiltCli(['compact', orphan, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(out)).toBe(true);
    expect(run.stdout).toMatch(
      /^ {2}validity {3}input not valid: 3 tool-pair problems in the input \(#0 .*tool result call_9 has no tool call\); the output has the same 3, none added$/m,
    );

    const json = await runBuiltCli(['compact', orphan, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const [file] = (
      JSON.parse(json.stdout) as {
        files: { report: FileReport['report'] & { inputValid: boolean } }[];
      }
    ).files;
    expect(file!.report.inputValid).toBe(false);
    expect(file!.report.inputProblems).toContainEqual(
      expect.objectContaining({ code: 'orphan_tool_result', toolCallId: 'call_9' }),
    );
    expect(file!.report.problems.length).toBeLessThanOrEqual(file!.report.inputProblems.length);

    // Several files: the column says what it counts.
    const table = await runBuiltCli(['compact', orphan, trailingCall]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      /^orphan-result\.json .* 3 tool-pair problems, all in the input$/m,
    );
    expect(table.stdout).toMatch(/^trailing-call\.json .* ok$/m);
  });

  it('takes a final unanswered tool call as valid input (a live agent loop has not answered it yet)', async () => {
    const run = await runBuiltCli(['compact', trailingCall, '--json']);
    expect(run.code, run.stderr).toBe(0);
    const [file] = (JSON.parse(run.stdout) as { files: { report: { inputValid: boolean } }[] })
      .files;
    expect(file!.report.inputValid).toBe(true);
  });

  it('warns on stderr about an unknown model and a --keep-last larger than the target', async () => {
    const plain = await runBuiltCli([
      'compact',
      trailingCall,
      '--model',
      'no-such-model',
      '--keep-last',
      '100k',
      '--window',
      '4k',
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr.trimEnd().split('\n')).toEqual([
      'baton: warning: unknown --model, a 13-character value (not shown): counting with the heuristic estimate',
      'baton: warning: --keep-last 100,000 is more than the target (2,000): the verbatim tail gets only what fits the target after the head',
    ]);
    expect(plain.stdout).not.toContain('warning');

    // Without --window the fallback window would be a guess: a usage error with the closest ids.
    const noWindow = await runBuiltCli(['compact', trailingCall, '--model', 'no-such-model']);
    expect(noWindow.code).toBe(2);
    expect(noWindow.stderr).toBe(
      'baton: unknown --model, a 13-character value (not shown) (give --window <tokens> to compact with the heuristic estimate anyway) (see baton --help)\n',
    );
    const typo = await runBuiltCli(['compact', trailingCall, '--model', 'gtp-4o-mini']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/; did you mean gpt-4o-mini(?:, [\w.-]+)*\? /);
    // Other spellings of a known id are read as it, silently.
    for (const spelling of ['gpt4o', 'GPT-4o', 'gpt 4o', 'claude_sonnet_4.5']) {
      const run = await runBuiltCli(['compact', trailingCall, '--model', spelling, '--json']);
      expect(run.code, spelling).toBe(0);
      expect(run.stderr, spelling).toBe('');
      expect(JSON.parse(run.stdout).warnings, spelling).toEqual([]);
    }

    // --json: stderr stays silent, the warnings are fields of the document.
    const json = await runBuiltCli([
      'compact',
      trailingCall,
      '--model',
      'no-such-model',
      '--keep-last',
      '100k',
      '--window',
      '4k',
      '--json',
    ]);
    expect(json.stderr).toBe('');
    expect((JSON.parse(json.stdout) as { warnings: string[] }).warnings).toEqual([
      expect.stringMatching(/^unknown --model, a 13-character value \(not shown\)/),
      expect.stringMatching(/^--keep-last 100,000 is more than the target/),
    ]);

    const count = await runBuiltCli(['count', trailingCall, '--model', 'no-such-model']);
    expect(count.stderr).toBe(
      'baton: warning: unknown --model, a 13-character value (not shown): counting with the heuristic estimate\n',
    );

    for (const model of [
      'gpt-4o',
      'claude-sonnet-4-5',
      'anthropic/claude-haiku-4-5',
      'qwen2.5:7b',
    ]) {
      const known = await runBuiltCli([
        'compact',
        trailingCall,
        '--model',
        model,
        '--keep-last',
        '1k',
      ]);
      expect(known.stderr, model).toBe('');
    }
  });

  it('escapes the raw bytes of a binary file and clips the excerpt in its one-line error', async () => {
    const binary = join(folder, 'image.json');
    writeFileSync(
      binary,
      Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]), randomBytes(4096)]),
    );
    const controlOnly = join(folder, 'control.json');
    // No NUL, so it reaches the JSON parser, whose message quotes the input.
    writeFileSync(controlOnly, `\x7f\x1b[31m${'x\x01'.repeat(2000)}`);
    for (const file of [binary, controlOnly]) {
      const out = join(temporaryFolder(), 'out.json');
      const run = await runBuiltCli(['compact', file, '--out', out]);
      expect(run.code, file).toBe(2);
      expect(run.stdout).toBe('');
      expect(existsSync(out)).toBe(false);
      const line = run.stderr.slice(0, -1);
      expect(run.stderr.endsWith('\n')).toBe(true);
      expect(line).toContain(file);
      expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\ufffd]/);
      expect(line.length).toBeLessThanOrEqual(420);
    }
    const binaryRun = await runBuiltCli(['count', binary]);
    expect(binaryRun.stderr).toBe(
      `baton: ${binary}: binary file, not a transcript (it holds NUL bytes)\n`,
    );
    const controlRun = await runBuiltCli(['count', controlOnly]);
    expect(controlRun.stderr).toMatch(/^baton: .*control\.json: invalid JSON: .*\\x7f/);
  });
});
