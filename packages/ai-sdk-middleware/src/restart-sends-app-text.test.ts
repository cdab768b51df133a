import { randomInt } from 'node:crypto';
import type { ModelMessage } from '@ai-sdk/provider-utils';
import { createSessionStore } from '@baton/sessions';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { expect, it } from 'vitest';
import { compactionMiddleware } from './compaction-middleware.js';
import { filler, usage } from './test-utils/conversation.js';

/**
 * Found by the session-22 sequence attack: a process resuming from the store sent the head and
 * tail a compaction kept verbatim in their stored form, so the latest ask reached the model as
 * `Use [REDACTED:github-token] to push.` although the app sent the token. The store keeps markers;
 * the model gets what the app wrote. The review then found the restore stopping at instructions
 * rebuilt per call (a date, a call number): system messages pair by position.
 */
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (length: number) =>
  Array.from({ length }, () => alnum[randomInt(alnum.length)]).join('');

function toolTurn(id: string, seed: number): ModelMessage[] {
  return [
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'bash', input: { command: 'ls' } }],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'bash',
          output: { type: 'text', value: filler(700, seed) },
        },
      ],
    },
  ];
}

it.each([
  ['the same instructions', (_call: number) => 'Git bot.'],
  ['instructions rebuilt per call', (call: number) => `Git bot. Call ${call}.`],
])(
  'a restarted process sends the head and the latest ask as the app wrote them, %s',
  async (_name, instructionsFor) => {
    const first = `ghp_${pick(36)}`;
    const latest = `ghp_${pick(36)}`;
    const history: ModelMessage[] = [
      { role: 'user', content: `Clone the repo with ${first} and read it.` },
      { role: 'assistant', content: 'Cloning.' },
      ...toolTurn('c1', 1),
      ...toolTurn('c2', 2),
      ...toolTurn('c3', 3),
      { role: 'user', content: `Use ${latest} to push.` },
    ];
    const store = await createSessionStore();
    const prompts: string[] = [];
    const compacted: boolean[] = [];
    const wrap = () =>
      wrapLanguageModel({
        model: new MockLanguageModelV4({
          doGenerate: async (options) => {
            prompts.push(JSON.stringify(options.prompt));
            return {
              content: [{ type: 'text', text: 'ok' }],
              finishReason: { unified: 'stop', raw: 'stop' },
              usage: usage(),
              warnings: [],
            };
          },
        }),
        middleware: compactionMiddleware({
          contextWindow: 2_000,
          reservedOutputTokens: 300,
          strategy: 'summarize',
          store,
          sessionId: `restart-sends-app-text-${_name}`,
          summarizer: async () =>
            '## Goal\nPush\n## Completed actions\n1. listed files\n## Active state\nok\n## Remaining work\nPush',
        }),
      });
    try {
      for (const model of [wrap(), wrap()]) {
        const result = await generateText({
          model,
          instructions: instructionsFor(compacted.length),
          messages: history,
        });
        const baton = result.providerMetadata?.baton as { compacted?: boolean } | undefined;
        compacted.push(baton?.compacted === true);
      }
      const stored = JSON.stringify(
        await Promise.all(
          (await store.listSessions()).map((session) => store.getMessages(session.id)),
        ),
      );
      // Premises: the first process compacted; the second resumed that compaction from the store,
      // which holds the tokens as markers only.
      expect(compacted).toEqual([true, false]);
      expect(stored).toContain('[REDACTED:');
      expect(stored).not.toContain(latest);
      expect(stored).not.toContain(first);
      expect(prompts).toHaveLength(2);
      for (const prompt of prompts) {
        expect(prompt).toContain(`Use ${latest} to push.`);
        expect(prompt).toContain(`Clone the repo with ${first} and read it.`);
        expect(prompt).not.toContain('[REDACTED:');
      }
      // Control: the second prompt is the compacted one (the summary, not the tool outputs).
      expect(prompts[1]).toContain('Remaining work');
      expect(prompts[1]).not.toContain(filler(700, 1).slice(0, 200));
    } finally {
      await store.close();
    }
  },
  60_000,
);
