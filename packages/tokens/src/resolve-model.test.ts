import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter, InvalidInputError, resolveModel, unknownModel } from './index.js';

describe('resolveModel', () => {
  it.each([
    ['gpt-4o', 'openai', 'o200k_base', 128_000],
    ['gpt-4o-mini-2024-07-18', 'openai', 'o200k_base', 128_000],
    ['openai/gpt-4.1', 'openai', 'o200k_base', 1_047_576],
    ['gpt-4.1-nano-2025-04-14', 'openai', 'o200k_base', 1_047_576],
    ['gpt-5', 'openai', 'o200k_base', 400_000],
    ['gpt-5-mini-2025-08-07', 'openai', 'o200k_base', 400_000],
    ['openai:gpt-5.1-codex', 'openai', 'o200k_base', 400_000],
    ['o1', 'openai', 'o200k_base', 200_000],
    ['o3-mini-2025-01-31', 'openai', 'o200k_base', 200_000],
    ['o4-mini', 'openai', 'o200k_base', 200_000],
    ['gpt-4', 'openai', 'cl100k_base', 8_192],
    ['gpt-4-0613', 'openai', 'cl100k_base', 8_192],
    ['gpt-4-turbo-2024-04-09', 'openai', 'cl100k_base', 128_000],
    ['gpt-3.5-turbo', 'openai', 'cl100k_base', 16_385],
    ['text-davinci-003', 'openai', 'p50k_base', 4_097],
  ])('%s -> %s %s', (id, provider, encoding, contextWindow) => {
    const info = resolveModel(id);
    expect(info).toMatchObject({ provider, encoding, contextWindow, exact: true });
    expect(info.maxOutputTokens).toBeGreaterThan(0);
  });

  it.each([
    ['claude-sonnet-4-5-20250929', 'anthropic', 200_000],
    ['anthropic:claude-3-5-sonnet-20241022', 'anthropic', 200_000],
    ['us.anthropic.claude-3-7-sonnet-20250219-v1:0', 'anthropic', 200_000],
    ['anthropic/claude-opus-4-1', 'anthropic', 200_000],
    ['gemini-2.5-pro', 'google', 1_048_576],
    ['google/gemini-1.5-pro-002', 'google', 2_097_152],
    ['meta-llama/Llama-3.1-70B-Instruct', 'meta', 131_072],
    ['llama3-8b-8192', 'meta', 8_192],
    ['qwen2.5-72b-instruct', 'qwen', 32_768],
    ['Qwen/Qwen3-Coder-480B-A35B-Instruct', 'qwen', 262_144],
    ['deepseek-chat', 'deepseek', 128_000],
    ['deepseek-ai/DeepSeek-R1', 'deepseek', 128_000],
    ['mistral-large-latest', 'mistral', 131_072],
    ['mistralai/Mixtral-8x7B-Instruct-v0.1', 'mistral', 32_768],
  ])('%s -> %s, heuristic', (id, provider, contextWindow) => {
    expect(resolveModel(id)).toMatchObject({
      provider,
      encoding: 'heuristic',
      exact: false,
      contextWindow,
    });
  });

  // Ollama-style `family:tag` ids: the tag is a size or `latest`, never a provider.
  it.each([
    ['gemma:2b', 'google', 8_192],
    ['gemma2:9b', 'google', 8_192],
    ['gemma3:1b', 'google', 32_768],
    ['gemma3:27b', 'google', 131_072],
    ['llama:7b', 'meta', 2_048],
    ['llama2:7b', 'meta', 4_096],
    ['llama3:8b', 'meta', 8_192],
    ['llama3.1:8b', 'meta', 131_072],
    ['llama3.2:latest', 'meta', 131_072],
    ['codellama:7b', 'meta', 16_384],
    ['codestral:22b', 'mistral', 32_768],
    ['codestral-latest', 'mistral', 256_000],
    ['mixtral:8x7b', 'mistral', 32_768],
    ['mixtral:8x22b', 'mistral', 65_536],
    ['mistral:7b', 'mistral', 32_768],
    ['mistral-nemo:12b', 'mistral', 131_072],
    ['qwen2.5:7b', 'qwen', 32_768],
    ['qwq:latest', 'qwen', 131_072],
    ['deepseek-r1:7b', 'deepseek', 128_000],
    ['deepseek-coder:6.7b', 'deepseek', 16_384],
    ['ollama:llama3.1:70b', 'meta', 131_072],
    ['openrouter:anthropic/claude-sonnet-4-5', 'anthropic', 200_000],
  ])('%s -> %s, %d (family:tag, not provider:model)', (id, provider, contextWindow) => {
    expect(resolveModel(id)).toMatchObject({ provider, encoding: 'heuristic', contextWindow });
  });

  it('still reads known provider prefixes before a colon', () => {
    expect(resolveModel('openai:gpt-4o')).toMatchObject({ provider: 'openai', exact: true });
    expect(resolveModel('anthropic:claude-3-5-sonnet-20241022').provider).toBe('anthropic');
    expect(resolveModel('mistral:mistral-large-latest').contextWindow).toBe(131_072);
  });

  it('gives unknown models the heuristic and a conservative window', () => {
    expect(resolveModel('my-local-model')).toEqual(unknownModel);
    expect(resolveModel('')).toEqual(unknownModel);
    expect(resolveModel('mistralai/some-future-model')).toEqual({
      ...unknownModel,
      provider: 'mistral',
    });
    expect(unknownModel).toMatchObject({
      encoding: 'heuristic',
      exact: false,
      contextWindow: 32_768,
    });
  });

  it('never throws for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (id) => {
        const info = resolveModel(id);
        expect(info.contextWindow).toBeGreaterThan(0);
      }),
    );
  });

  it('rejects a non-string id', () => {
    expect(() => resolveModel(7 as unknown as string)).toThrowError(InvalidInputError);
  });

  it('drives createTokenCounter', () => {
    expect(createTokenCounter({ model: 'openai/gpt-4o' }).encoding).toBe('o200k_base');
    expect(createTokenCounter({ model: 'gpt-4' }).encoding).toBe('cl100k_base');
    expect(createTokenCounter({ model: 'gemini-2.5-flash' }).exact).toBe(false);
    expect(createTokenCounter({ model: 'gpt-4', encoding: 'o200k_base' }).encoding).toBe(
      'o200k_base',
    );
  });
});
