import type { ModelMessage } from '@ai-sdk/provider-utils';
import { type CompressionStrategy, validateToolPairs } from '@baton/compressor';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  anyStrategy,
  restartStore,
  tally,
  githubToken as token,
  toolTurn,
} from './test-utils/restart-attack.js';

/**
 * Attack on the restore after a restart: between the compaction and the restart the app rewrites,
 * moves, adds or removes system messages (none of which undoes a compaction: the prefix check skips
 * them), swaps the token in one of its messages (an edit: the lineage forks), or sends the same ask
 * with two tokens. Whatever it did, the restarted process sends no message holding a token the app
 * does not hold at that point, the app messages it sends are in the app's order, tool calls pair,
 * and the latest ask is sent as the app holds it.
 */

type Edit =
  | { kind: 'none' }
  | { kind: 'rewrite-systems'; secret: number | undefined }
  | { kind: 'move-system'; from: number; to: number }
  | { kind: 'remove-system'; at: number }
  | { kind: 'add-system'; at: number; secret: number | undefined }
  | { kind: 'swap-token'; at: number };

const secretIndex = fc.option(fc.integer({ min: 0, max: 1 }), { nil: undefined });
const position = fc.integer({ min: 0, max: 1_000 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('none' as const) }),
  fc.record({ kind: fc.constant('rewrite-systems' as const), secret: secretIndex }),
  fc.record({ kind: fc.constant('move-system' as const), from: position, to: position }),
  fc.record({ kind: fc.constant('remove-system' as const), at: position }),
  fc.record({ kind: fc.constant('add-system' as const), at: position, secret: secretIndex }),
  fc.record({ kind: fc.constant('swap-token' as const), at: position }),
);

interface Turn {
  ask: number | undefined;
  tools: number[];
  system: number | undefined | null;
}
const turn: fc.Arbitrary<Turn> = fc.record({
  ask: secretIndex,
  tools: fc.array(fc.integer({ min: 40, max: 200 }), { minLength: 1, maxLength: 4 }),
  // null: no system message in this turn.
  system: fc.option(secretIndex, { nil: null }),
});

const startRun = restartStore('restart-edits');

function textOf(message: ModelMessage): string {
  return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

async function run(
  tokens: [string, string],
  strategy: CompressionStrategy,
  turns: Turn[],
  edits: Edit[],
  outcomes: Record<string, number>,
): Promise<void> {
  const { make } = startRun(strategy);
  const count = (key: string) => tally(outcomes, key);
  const withSecret = (text: string, secret: number | undefined) =>
    secret === undefined ? text : `${text} with ${tokens[secret]}`;
  let history: ModelMessage[] = [
    { role: 'system', content: 'You are a git agent.' },
    { role: 'user', content: 'Set up the repository.' },
  ];
  let call = 0;
  let manager = make();
  let compactedOnce = false;
  for (const [index, current] of turns.entries()) {
    history.push({ role: 'user', content: withSecret(`Push branch ${index % 2}`, current.ask) });
    if (current.system !== null)
      history.push({ role: 'system', content: withSecret('Mode: careful', current.system) });
    for (const size of current.tools) {
      const id = `c${++call}`;
      history.push(...toolTurn(id, size));
    }
    const prepared = await manager.prepare(history);
    if (prepared.report.compacted) compactedOnce = true;
    if (!compactedOnce) continue;
    // A restart, and the app edits its history before its next request.
    const change = edits[index % Math.max(edits.length, 1)] ?? { kind: 'none' };
    history = applyEdit(history, change, tokens);
    count(`edit:${change.kind}`);
    history.push({ role: 'assistant', content: `Step ${index} done.` });
    await manager.close();
    manager = make();
    const sent = (await manager.prepare(history)).messages;
    count('checked');
    const appJson = history.map((message) => JSON.stringify(message));
    // Tool calls pair (a mid-conversation system message is the app's own choice).
    const problems = validateToolPairs(sent).problems.filter(
      (problem) => problem.code !== 'system_not_leading',
    );
    expect(problems).toEqual([]);
    // No token the app does not hold in that very message; app messages in the app's order.
    let cursor = -1;
    for (const message of sent) {
      const json = JSON.stringify(message);
      const holdsToken = tokens.some((secret) => json.includes(secret));
      let at = -1;
      for (let index = cursor + 1; index < appJson.length; index++) {
        if (appJson[index] === json) {
          at = index;
          break;
        }
      }
      if (holdsToken) {
        count('sent a token');
        expect(at, `sent ${json.slice(0, 160)}, not the app's`).toBeGreaterThan(cursor);
      }
      if (at >= 0) cursor = at;
      else if (message.role !== 'system' && appJson.includes(json)) {
        throw new Error(
          `app message out of order: ${json.slice(0, 160)}\nsent ${sent.map((m) => JSON.stringify(m).slice(0, 90)).join('\n')}\napp ${appJson.map((m) => m.slice(0, 90)).join('\n')}`,
        );
      }
    }
    // The latest ask as the app holds it.
    const ask = history.findLast((message) => message.role === 'user');
    expect(sent.map(textOf)).toContain(textOf(ask!));
  }
  await manager.close();
}

/** An index to insert at, not between a tool call and its result (that would be the app's own 400). */
function insertionPoint(messages: readonly ModelMessage[], choice: number): number {
  const points: number[] = [];
  for (let index = 1; index <= messages.length; index++)
    if (
      messages[index - 1]!.role !== 'assistant' ||
      typeof messages[index - 1]!.content === 'string'
    )
      points.push(index);
  return points[choice % points.length]!;
}

function applyEdit(history: ModelMessage[], change: Edit, tokens: [string, string]) {
  const next = history.slice();
  const systems = next.flatMap((message, index) =>
    index > 0 && message.role === 'system' ? [index] : [],
  );
  switch (change.kind) {
    case 'none':
      break;
    case 'rewrite-systems':
      for (const index of [0, ...systems])
        next[index] = {
          role: 'system',
          content: `Rewritten ${index}${change.secret === undefined ? '' : ` ${tokens[change.secret]}`}`,
        };
      break;
    case 'move-system': {
      if (systems.length === 0) break;
      const from = systems[change.from % systems.length]!;
      const [moved] = next.splice(from, 1);
      next.splice(insertionPoint(next, change.to), 0, moved!);
      break;
    }
    case 'remove-system':
      if (systems.length > 0) next.splice(systems[change.at % systems.length]!, 1);
      break;
    case 'add-system':
      next.splice(insertionPoint(next, change.at), 0, {
        role: 'system',
        content: `Added${change.secret === undefined ? '' : ` ${tokens[change.secret]}`}`,
      });
      break;
    case 'swap-token': {
      const users = next.flatMap((message, index) =>
        message.role === 'user' && textOf(message).includes('ghp_') ? [index] : [],
      );
      if (users.length === 0) break;
      const index = users[change.at % users.length]!;
      const text = textOf(next[index]!);
      next[index] = {
        role: 'user',
        content: text.includes(tokens[0])
          ? text.replace(tokens[0], tokens[1])
          : text.replace(tokens[1], tokens[0]),
      };
      break;
    }
  }
  return next;
}

describe('a restarted process and an app that edits its history meanwhile', () => {
  const outcomes: Record<string, number> = {};
  it('sends only messages the app holds, in its order, paired, with the latest ask', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(token, token).filter(([a, b]) => a !== b),
        anyStrategy,
        fc.noBias(fc.array(turn, { minLength: 3, maxLength: 7 })),
        fc.noBias(fc.array(edit, { minLength: 1, maxLength: 4 })),
        async (tokens, strategy, turns, edits) => run(tokens, strategy, turns, edits, outcomes),
      ),
      { numRuns: 25 },
    );
    console.info(`restart edit outcomes: ${JSON.stringify(outcomes)}`);
    expect(outcomes.checked ?? 0).toBeGreaterThan(10);
    expect(outcomes['sent a token'] ?? 0).toBeGreaterThan(5);
  }, 600_000);
});
