import { describe, expect, it } from 'vitest';
import { readDemoConfig } from './read-demo-config.js';
import { selectModel } from './select-model.js';

describe('selectModel', () => {
  it('plays the scripted agent offline when nothing is configured', () => {
    const selected = selectModel({});
    expect(selected.description).toMatchObject({ provider: 'scripted', offline: true });
    expect(selected.summarizer).toBeUndefined();
    expect(selected.model.specificationVersion).toBe('v4');
  });

  it('picks providers from the environment, an OpenAI-compatible URL first', () => {
    const key = 'sk-' + 'x'.repeat(20);
    expect(selectModel({ OPENAI_API_KEY: key }).description).toMatchObject({
      provider: 'openai',
      offline: false,
    });
    expect(selectModel({ ANTHROPIC_API_KEY: key }).description.provider).toBe('anthropic');
    const local = selectModel({
      OPENAI_API_KEY: key,
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      DEMO_MODEL: 'qwen2.5-coder',
    });
    expect(local.description).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'qwen2.5-coder',
    });
    expect(local.model.modelId).toBe('qwen2.5-coder');
    expect(local.summarizer).toBeDefined();
  });
});

describe('readDemoConfig', () => {
  it('defaults to a small window offline and resolves the data directory', () => {
    const config = readDemoConfig({}, '/app');
    expect(config).toMatchObject({ port: 5173, contextWindow: 8000, dataDirectory: '/app/.data' });
    expect(readDemoConfig({ OPENAI_API_KEY: 'k' }, '/app').contextWindow).toBe(16000);
    expect(readDemoConfig({ DEMO_CONTEXT_WINDOW: '32000', PORT: '0' }, '/app')).toMatchObject({
      contextWindow: 32000,
      port: 0,
    });
  });

  it('reads the body limit and the extra allowed hosts', () => {
    expect(readDemoConfig({}, '/app')).toMatchObject({ maxBodyBytes: 1_048_576, allowedHosts: [] });
    expect(
      readDemoConfig(
        { DEMO_MAX_BODY_BYTES: '2048', DEMO_ALLOWED_HOSTS: ' demo.lan, ,box.home ' },
        '/app',
      ),
    ).toMatchObject({ maxBodyBytes: 2048, allowedHosts: ['demo.lan', 'box.home'] });
    expect(() => readDemoConfig({ DEMO_MAX_BODY_BYTES: '1e3x' }, '/app')).toThrow(
      /DEMO_MAX_BODY_BYTES/,
    );
  });

  it('rejects malformed numbers', () => {
    expect(() => readDemoConfig({ PORT: 'abc' }, '/app')).toThrow(/PORT must be/);
    expect(() => readDemoConfig({ DEMO_CONTEXT_WINDOW: '-5' }, '/app')).toThrow(
      /DEMO_CONTEXT_WINDOW/,
    );
  });
});
