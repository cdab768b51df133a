import { randomBytes } from 'node:crypto';
import { mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, streamText } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalModel, ModelLoadError } from './index.js';
import { realModel } from './test-utils/real-model.js';

const folder = mkdtempSync(join(tmpdir(), 'baton-bad-gguf-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Does the node-llama-cpp runtime load here? The attacks need it, not a model. */
async function runtimeSkipReason(): Promise<string | undefined> {
  try {
    await import('node-llama-cpp');
    return undefined;
  } catch {
    return 'node-llama-cpp is not installed: corrupted-model attacks skipped';
  }
}
const skipReason = await runtimeSkipReason();
const { modelPath: goodModel } = await realModel();

async function expectLoadError(path: string, notEchoed: string): Promise<void> {
  const model = createLocalModel({ modelPath: path, contextSize: 256 });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      // A failed load is retried by the next call: it must fail the same typed way, not crash.
      const error = await generateText({ model, prompt: 'hi', maxOutputTokens: 2, maxRetries: 0 })
        .then(() => undefined)
        .catch((caught: unknown) => caught);
      expect(ModelLoadError.isInstance(error)).toBe(true);
      const typed = error as ModelLoadError;
      expect(typed.code).toBe('model_load_failed');
      expect(typed.modelPath).toBe(path);
      expect(typed.message).not.toContain(notEchoed);
    }
  } finally {
    await model.dispose();
  }
}

describe.skipIf(skipReason !== undefined)(
  'createLocalModel on a file that is no loadable model',
  () => {
    it('random bytes (a secret file passed as modelPath): a typed error that never quotes them', async () => {
      const secret = `sk${randomBytes(12).toString('hex')}`;
      const path = join(folder, `random-${randomBytes(3).toString('hex')}.gguf`);
      writeFileSync(path, Buffer.concat([Buffer.from(secret), randomBytes(4096)]));
      await expectLoadError(path, secret.slice(0, 4));
    });

    it('an empty file: a typed error', async () => {
      const path = join(folder, `empty-${randomBytes(3).toString('hex')}.gguf`);
      writeFileSync(path, '');
      await expectLoadError(path, '\u0000');
    });

    it.skipIf(goodModel === undefined)(
      'a truncated download of the real model: a typed error',
      async () => {
        const length = 200_000 + Math.floor(Math.random() * 800_000);
        const head = Buffer.alloc(length);
        const handle = openSync(goodModel!, 'r');
        readSync(handle, head, 0, length, 0);
        const path = join(folder, `truncated-${length}.gguf`);
        writeFileSync(path, head);
        await expectLoadError(path, 'llama_model_loader');
      },
    );
  },
);

describe.skipIf(goodModel === undefined)(
  'LocalLanguageModel: a call aborted while it waits its turn',
  () => {
    const model = createLocalModel({ modelPath: goodModel, contextSize: 512 });
    afterAll(() => model.dispose());

    it('is rejected at once, while the call before it still generates, and the model stays usable', async () => {
      await model.load();
      const nonce = randomBytes(3).toString('hex');
      let queuedSettled = false;
      let deltasAfter = 0;
      const long = streamText({
        model,
        prompt: `Write a long story about a dragon named ${nonce}.`,
        maxOutputTokens: 120,
        maxRetries: 0,
      });
      const controller = new AbortController();
      const queued = generateText({
        model,
        prompt: 'Say hi.',
        maxOutputTokens: 4,
        maxRetries: 0,
        abortSignal: controller.signal,
      }).then(
        () => 'answered',
        (error: unknown) => (error as Error).name,
      );
      void queued.finally(() => {
        queuedSettled = true;
      });
      setTimeout(() => controller.abort(), 100 + Math.floor(Math.random() * 200));
      for await (const delta of long.textStream) if (queuedSettled && delta !== '') deltasAfter++;
      expect(await queued).toBe('AbortError');
      // Settled while the first call was still streaming, not when it ended.
      expect(deltasAfter).toBeGreaterThan(10);
      const after = await generateText({
        model,
        prompt: 'Say hi.',
        maxOutputTokens: 4,
        maxRetries: 0,
      });
      expect(after.text.length).toBeGreaterThan(0);
    }, 120_000);
  },
);
