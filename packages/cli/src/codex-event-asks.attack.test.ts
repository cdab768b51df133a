import { describe, expect, it } from 'vitest';
import { parseTranscript } from './read-transcript.js';

/**
 * Found by an outside attack: an older Codex rollout (user messages only as `event_msg` lines) had
 * each message spliced into the list where it was logged, one splice per message, each shifting
 * everything after it: quadratic. 80,000 asks between system lines (13 MB, far under the 256 MiB
 * input limit) took ~1.5 s CPU and every 4x more took ~12x longer.
 */
const line = (type: string, payload: Record<string, unknown>) =>
  JSON.stringify({ timestamp: '2025-01-01T00:00:00Z', type, payload });

/** `asks` user messages logged as events, each followed by a line that becomes a message. */
function rolloutOfEventAsks(asks: number): string {
  const lines = [line('session_meta', { id: 'session' })];
  for (let index = 0; index < asks; index++) {
    lines.push(line('event_msg', { type: 'user_message', message: `ask ${index}` }));
    lines.push(line('session_meta', { base_instructions: `rules ${index}` }));
  }
  return lines.join('\n');
}

/** Thread CPU of one parse, least of three readings (the least is the one other load disturbed least). */
function parseCpuMs(text: string): number {
  const readings: number[] = [];
  for (let round = 0; round < 3; round++) {
    const start = process.threadCpuUsage();
    parseTranscript(text, { file: 'rollout.jsonl' });
    const used = process.threadCpuUsage(start);
    readings.push((used.user + used.system) / 1000);
  }
  return Math.min(...readings);
}

describe('attack: a Codex rollout of many event-only user messages', () => {
  it('places each ask where it was logged, in order (control for the growth test)', () => {
    const transcript = parseTranscript(rolloutOfEventAsks(3), { file: 'rollout.jsonl' });
    expect(transcript.format).toBe('codex-cli');
    expect(transcript.messages).toEqual([
      { role: 'user', content: 'ask 0' },
      { role: 'system', content: 'rules 0' },
      { role: 'user', content: 'ask 1' },
      { role: 'system', content: 'rules 1' },
      { role: 'user', content: 'ask 2' },
      { role: 'system', content: 'rules 2' },
    ]);
  });

  it('reads in linear time (4x the asks under 8x the CPU)', () => {
    const small = rolloutOfEventAsks(25_000);
    const large = rolloutOfEventAsks(100_000);
    // Premise: every ask is read (the case really places event asks, 2 messages per pair).
    expect(parseTranscript(large, { file: 'rollout.jsonl' }).messages).toHaveLength(200_000);
    parseCpuMs(rolloutOfEventAsks(2_000));
    const smallMs = parseCpuMs(small);
    const largeMs = parseCpuMs(large);
    // Linear: about 4x. Quadratic (one splice per ask): measured ~12x to 16x.
    expect(largeMs, `25,000 asks ${smallMs} ms, 100,000 asks ${largeMs} ms`).toBeLessThan(
      8 * smallMs,
    );
  }, 120_000);
});
