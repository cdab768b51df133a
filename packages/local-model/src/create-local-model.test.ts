import { generateText, Output, streamText } from 'ai';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocalModel, type LocalLanguageModel } from './create-local-model.js';
import { LocalContextOverflowError } from './local-model-errors.js';
import { realModel } from './test-utils/real-model.js';

const { modelPath, skipReason } = await realModel();

describe.skipIf(skipReason !== undefined)('LocalLanguageModel on the real model', () => {
  const model: LocalLanguageModel = createLocalModel({ modelPath, contextSize: 1024 });
  afterAll(() => model.dispose());

  const prompt = `List three colours, one per line. Nonce ${Math.random().toString(36).slice(2, 8)}.`;

  it('generates greedily: the same prompt gives the same reply, with usage in the model tokenizer', async () => {
    const first = await generateText({ model, prompt, maxOutputTokens: 24 });
    const second = await generateText({ model, prompt, maxOutputTokens: 24 });
    expect(first.text.length).toBeGreaterThan(0);
    expect(second.text).toBe(first.text);
    const inputTokens = first.usage.inputTokens ?? 0;
    // The rendered chat holds the prompt and the template around it.
    expect(inputTokens).toBeGreaterThan(await model.countTokens(prompt));
    expect(first.usage.outputTokens).toBeGreaterThan(0);
    expect(first.usage.outputTokens).toBeLessThanOrEqual(24);
  });

  it('stops at maxOutputTokens with finishReason length', async () => {
    const result = await generateText({
      model,
      prompt: 'Write a long story about a lighthouse keeper.',
      maxOutputTokens: 7,
    });
    expect(result.finishReason).toBe('length');
    expect(result.usage.outputTokens).toBe(7);
  });

  it('streams the same text it generates, in several deltas', async () => {
    const whole = await generateText({ model, prompt, maxOutputTokens: 24 });
    const stream = streamText({ model, prompt, maxOutputTokens: 24 });
    const deltas: string[] = [];
    for await (const delta of stream.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(whole.text);
    expect(await stream.finishReason).toBe(whole.finishReason);
  });

  it('cuts the reply at a stop sequence and never streams it', async () => {
    const whole = await generateText({ model, prompt, maxOutputTokens: 24 });
    // Any 2-character piece of the reply past its start works as a stop sequence.
    const at = Math.max(1, Math.floor(whole.text.length / 2));
    const stop = whole.text.slice(at, at + 2);
    const cut = whole.text.slice(0, whole.text.indexOf(stop));
    const stream = streamText({ model, prompt, maxOutputTokens: 24, stopSequences: [stop] });
    let streamed = '';
    for await (const delta of stream.textStream) streamed += delta;
    expect(streamed).toBe(cut);
    expect(await stream.finishReason).toBe('stop');
  });

  it('follows a JSON schema through the grammar and ends when the object is complete', async () => {
    const schema = z.object({
      name: z.string().max(20),
      items: z.array(z.string().max(20)).max(3),
    });
    const result = await generateText({
      model,
      prompt: 'Give a shopping list named "weekend" with up to three items.',
      output: Output.object({ schema }),
      maxOutputTokens: 200,
    });
    const parsed = schema.parse(result.output);
    expect(typeof parsed.name).toBe('string');
    // The bounded object closes well within the cap: the reply ended, it was not cut.
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBeLessThan(200);
    expect(result.text).toBe(result.text.trimEnd());
  });

  it('aborts a generating stream promptly and stays usable', async () => {
    const controller = new AbortController();
    const { stream } = await model.doStream({
      prompt: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Write a very long essay about the history of bridges.' },
          ],
        },
      ],
      maxOutputTokens: 600,
      abortSignal: controller.signal,
    });
    let deltas = 0;
    let abortedAt = 0;
    const reading = (async () => {
      const reader = stream.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (value.type !== 'text-delta') continue;
        deltas++;
        if (deltas === 3) {
          abortedAt = performance.now();
          controller.abort();
        }
      }
    })();
    const error = await reading.catch((caught) => caught);
    expect(error?.name).toBe('AbortError');
    // At most the token in flight (tens of ms) after the abort; then the queue is free again.
    expect(performance.now() - abortedAt).toBeLessThan(2_000);
    expect(deltas).toBeLessThan(10);
    const after = await generateText({ model, prompt, maxOutputTokens: 24 });
    expect(after.text.length).toBeGreaterThan(0);
  });

  it('ends a streamText call on abort without finishing the reply', async () => {
    const controller = new AbortController();
    const stream = streamText({
      model,
      prompt: 'Write a very long essay about the history of bridges.',
      maxOutputTokens: 600,
      abortSignal: controller.signal,
    });
    let deltas = 0;
    for await (const _ of stream.textStream) if (++deltas === 3) controller.abort();
    expect(deltas).toBeLessThan(10);
  });

  it('aborts during a long prompt, between evaluation chunks', async () => {
    // Distinct openings, so that no call reuses what the sequence holds of another.
    const long = (tag: string) =>
      `${tag}\n${Array.from({ length: 60 }, (_, index) => `line ${index}: the value is ${index * 7}`).join('\n')}`;
    expect(await model.countTokens(long('x'))).toBeGreaterThan(400);
    const fullStarted = performance.now();
    await generateText({ model, prompt: long(`full ${Math.random()}`), maxOutputTokens: 1 });
    const full = performance.now() - fullStarted;
    const started = performance.now();
    const error = await generateText({
      model,
      prompt: long(`cut ${Math.random()}`),
      maxOutputTokens: 8,
      abortSignal: AbortSignal.timeout(100),
      maxRetries: 0,
    }).catch((caught) => caught);
    expect(error?.name).toMatch(/AbortError|TimeoutError/);
    // Cut within a chunk of the abort, not after the whole prompt.
    expect(performance.now() - started).toBeLessThan(Math.max(100 + (full - 100) / 2, 600));
  });

  it('refuses a prompt larger than its context with a typed error, before evaluating it', async () => {
    const huge = 'word '.repeat(3_000);
    const error = await generateText({ model, prompt: huge, maxRetries: 0 }).catch(
      (caught) => caught,
    );
    expect(LocalContextOverflowError.isInstance(error)).toBe(true);
    expect(String(error.message)).not.toContain('word word');
  });
});
