import { randomInt } from 'node:crypto';
import { createSessionStore, type SessionStore } from '@baton/sessions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecallTool } from './create-recall-tool.js';

/**
 * Attack (reviewer): a recall excerpt is a window of the stored text, cut before redaction. A
 * credential the window cuts through loses the prefix or shape the redactor knows it by, and its
 * fragment went out in the clear. Stores written with `redactStoredMessages: false` (or directly)
 * hold raw text, so the tool must not rely on the rows being redacted.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (set: string, length: number) =>
  Array.from({ length }, () => set[randomInt(set.length)]).join('');
const words = ['build', 'server', 'config', 'retry', 'cache', 'module', 'deploy', 'worker'];
const prose = (count: number) =>
  Array.from({ length: count }, () => words[randomInt(words.length)]).join(' ');

/** Generated credentials of formats the redactor recognises whole, and the part that must not leak. */
const credentials = (): { secret: string; value: string }[] => {
  const github = `ghp_${pick(alnum, 36)}`;
  const anthropic = `sk-ant-api03-${pick(alnum, 90)}`;
  const slack = `xoxb-${pick('0123456789', 12)}-${pick('0123456789', 12)}-${pick(alnum, 24)}`;
  const aws = `AKIA${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
  return [github, anthropic, slack, aws].map((secret) => ({ secret, value: secret }));
};

/** Any run of `width` characters of `value` in `text`. */
function leaked(text: string, value: string, width: number): string | undefined {
  for (let index = 0; index + width <= value.length; index++) {
    const piece = value.slice(index, index + width);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

const run = (tool: ReturnType<typeof createRecallTool>, input: unknown) =>
  (tool.execute as (input: unknown, options: unknown) => Promise<string>)(input, {
    toolCallId: 'recall-1',
    messages: [],
  });

describe('recall excerpts cut through a credential', () => {
  let store: SessionStore;
  beforeAll(async () => {
    store = await createSessionStore();
  }, 60_000);
  afterAll(async () => {
    await store?.close();
  });

  it('a query window that starts inside a credential returns no fragment of it', async () => {
    for (let round = 0; round < 3; round++) {
      for (const { secret, value } of credentials()) {
        const marker = `zq${pick('abcdefghijklmnopqrstuvwxyz', 10)}`;
        const excerptLength = 40 + randomInt(60);
        const root = await store.createSession();
        await store.appendMessages(
          root.id,
          [{ role: 'user', content: `${prose(40)} ${secret} ${marker} ${prose(40)}` }],
          { startSequence: 0 },
        );
        const text = await run(createRecallTool({ store, sessionId: root.id, excerptLength }), {
          query: marker,
        });
        expect(text, secret.slice(0, 4)).toContain(marker);
        expect(leaked(text, value, 8), `${secret.slice(0, 4)}… in\n${text}`).toBeUndefined();
      }
    }
  }, 120_000);

  it('a range window that ends inside a credential returns no fragment of it', async () => {
    for (const { secret, value } of credentials()) {
      const excerptLength = 40 + randomInt(60);
      const inside = 4 + randomInt(Math.min(secret.length, 20) - 4);
      const root = await store.createSession();
      const head = `${prose(30)} `.slice(0, excerptLength - inside);
      await store.appendMessages(
        root.id,
        [{ role: 'user', content: `${head}${secret} ${prose(10)}` }],
        { startSequence: 0 },
      );
      const text = await run(createRecallTool({ store, sessionId: root.id, excerptLength }), {
        fromSequence: 0,
        toSequence: 0,
      });
      expect(text).toContain('sequence 0');
      expect(leaked(text, value, 8), `${secret.slice(0, 4)}… in\n${text}`).toBeUndefined();
    }
  }, 120_000);

  it('a long run without spaces gives an excerpt holding the match, and no fragment of a credential in it', async () => {
    const separators = ['/', ',', '=', ';', '|'];
    for (let round = 0; round < 4; round++) {
      // One run: words and credentials joined by punctuation, never a space, 2k to 20k characters.
      const marker = `zq${pick('abcdefghijklmnopqrstuvwxyz', 10)}`;
      const secrets = credentials();
      const parts = Array.from(
        { length: 300 + randomInt(2_500) },
        () => words[randomInt(words.length)]!,
      );
      const markerAt = randomInt(parts.length);
      parts.splice(markerAt, 0, marker);
      // Credentials right around the marker, where an excerpt edge falls, and one far away.
      for (const { secret } of secrets) {
        parts.splice(Math.max(0, markerAt + randomInt(9) - 4), 0, secret);
      }
      parts.splice(randomInt(parts.length), 0, secrets[0]!.secret);
      const line = parts
        .map((part, index) =>
          index === 0 ? part : `${separators[randomInt(separators.length)]}${part}`,
        )
        .join('');
      expect(line).not.toMatch(/\s/);
      const excerptLength = 40 + randomInt(200);
      const root = await store.createSession();
      await store.appendMessages(root.id, [{ role: 'tool', content: line }], { startSequence: 0 });
      const text = await run(createRecallTool({ store, sessionId: root.id, excerptLength }), {
        query: marker,
      });
      expect(text, text).toContain(marker);
      for (const { secret, value } of secrets) {
        expect(leaked(text, value, 8), `${secret.slice(0, 4)}… in\n${text}`).toBeUndefined();
      }
      // By range: the message's start, cut inside the run, still shows text.
      const ranged = await run(createRecallTool({ store, sessionId: root.id, excerptLength }), {
        fromSequence: 0,
        toSequence: 0,
      });
      const body = ranged.split(':\n').slice(1).join(':\n');
      expect(body.trim().length, ranged).toBeGreaterThan(0);
      for (const { secret, value } of secrets) {
        expect(leaked(ranged, value, 8), `${secret.slice(0, 4)}… in\n${ranged}`).toBeUndefined();
      }
    }
  }, 120_000);
});
