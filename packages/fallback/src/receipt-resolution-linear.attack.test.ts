import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { createReceipt, extractHandoffFacts } from './index.js';
import { toolExchange as call } from './test-utils/tool-exchange.js';

/** CPU milliseconds of extracting `count` failing runs, each with its own error, then `count` passes. */
function cpuOf(count: number): { ms: number; resolved: number } {
  const messages: ModelMessage[] = [{ role: 'user', content: 'make every check pass' }];
  for (let run = 0; run < count; run++) {
    messages.push(
      ...call('bash', { command: `check ${run}` }, `error: check ${run} broke\nexit code 1`),
    );
  }
  // Half of them pass later; the rest stay open.
  for (let run = 0; run < count; run += 2) {
    messages.push(...call('bash', { command: `check ${run}` }, 'all good'));
  }
  const started = process.cpuUsage();
  const facts = extractHandoffFacts(messages);
  const spent = process.cpuUsage(started);
  return {
    ms: (spent.user + spent.system) / 1000,
    resolved: facts.errors.filter((error) => error.resolved).length,
  };
}

describe('resolution marking on many failures', () => {
  // Every failing call was compared with every later call: 4,000 failures and 2,000 passes were
  // millions of comparisons. Keyed by target, it grows with the window.
  it('stays linear in the number of failing calls (2,000 vs 8,000)', () => {
    const small = cpuOf(2000);
    const large = cpuOf(8000);
    // The even runs' own messages; `exit code 1` is shared with runs that stay open.
    expect(small.resolved).toBe(1000);
    expect(large.resolved).toBe(4000);
    expect(large.ms, `${small.ms} ms at 2,000, ${large.ms} ms at 8,000`).toBeLessThan(
      Math.max(400, small.ms * 6),
    );
  });
});

/** CPU milliseconds of `read` over one tool output that repeats `line` `count` times. */
function repeatedLineCpu(line: string, count: number, read: (messages: ModelMessage[]) => unknown) {
  const messages: ModelMessage[] = [
    { role: 'user', content: 'start the database and migrate' },
    ...call('bash', { command: 'npm run migrate' }, `${line}\n`.repeat(count)),
  ];
  const started = process.cpuUsage();
  read(messages);
  const spent = process.cpuUsage(started);
  return (spent.user + spent.system) / 1000;
}

describe('one error line repeated through a retry log', () => {
  // Each repeat copied the list of calls the line came from: 16,000 repeats took 1.3 s, 55,555 24 s.
  const port = 1024 + Math.floor(Math.random() * 60_000);
  const line = `Error: connect ECONNREFUSED 127.0.0.1:${port} (retrying)`;
  for (const [name, read] of [
    ['extractHandoffFacts', (messages: ModelMessage[]) => extractHandoffFacts(messages)],
    ['createReceipt', (messages: ModelMessage[]) => createReceipt(messages)],
  ] as const) {
    it(`${name} stays linear in the repeats (5,000 vs 20,000)`, () => {
      repeatedLineCpu(line, 1000, read);
      const small = repeatedLineCpu(line, 5000, read);
      const large = repeatedLineCpu(line, 20_000, read);
      expect(large, `${small} ms at 5,000, ${large} ms at 20,000`).toBeLessThan(
        Math.max(400, small * 8),
      );
    }, 60_000);
  }

  it('counts every repeat once and keeps the line open until its call succeeds', () => {
    const messages: ModelMessage[] = [
      { role: 'user', content: 'start the database and migrate' },
      ...call('bash', { command: 'npm run migrate' }, `${line}\n`.repeat(3000)),
    ];
    const open = extractHandoffFacts(messages).errors.find((error) => error.line.includes(line));
    expect(open?.count).toBe(3000);
    expect(open?.resolved).toBe(false);
    messages.push(...call('bash', { command: 'npm run migrate' }, 'migrated 3 tables'));
    const fixed = extractHandoffFacts(messages).errors.find((error) => error.line.includes(line));
    expect(fixed?.resolved).toBe(true);
  });
});
