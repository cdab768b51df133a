import type { ModelMessage } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { extractHandoffFacts } from './index.js';
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
