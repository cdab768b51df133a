import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoState } from '../shared/demo-types.js';
import { summarizerBanner } from '../shared/summarizer-banner.js';
import { createDemoServer, type DemoServer } from './create-demo-server.js';
import { findLocalSummarizer } from './local-summarizer.js';
import { readDemoConfig } from './read-demo-config.js';

let folder: string;
const opened: DemoServer[] = [];
const random = () => Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'baton-demo-local-'));
});
afterAll(async () => {
  for (const server of opened) await server.close();
  await rm(folder, { recursive: true, force: true });
});

/** A cache folder holding a (never loaded) model file of a generated name. */
async function cacheWithModel(): Promise<{ cacheDir: string; name: string }> {
  const cacheDir = path.join(folder, `cache-${random()}`);
  const name = `Tiny-${random()}-Instruct.Q4_1`;
  await mkdir(path.join(cacheDir, 'models'), { recursive: true });
  await writeFile(path.join(cacheDir, 'models', `${name}.gguf`), 'GGUF');
  return { cacheDir, name };
}

async function stateOf(environment: Record<string, string>): Promise<DemoState> {
  const server = await createDemoServer({
    config: {
      ...readDemoConfig({}, '/unused'),
      dataDirectory: path.join(folder, `data-${random()}`),
      stepDelayMs: 0,
    },
    environment,
    log: () => undefined,
  });
  opened.push(server);
  return (await (await server.app.request('/api/state')).json()) as DemoState;
}

describe('offline demo summariser', () => {
  it('with a local model in the cache: it summarises, and the banner names it', {
    timeout: 120_000,
  }, async () => {
    const { cacheDir, name } = await cacheWithModel();
    const state = await stateOf({ BATON_CACHE_DIR: cacheDir });
    expect(state.model).toMatchObject({
      provider: 'scripted',
      offline: true,
      offlineSummarizer: 'local',
      summarizer: name,
    });
    const banner = summarizerBanner(state.model);
    expect(banner).toContain(`local model ${name}`);
    expect(banner).not.toContain('receipt (');
  });

  it('an explicit DEMO_LOCAL_MODEL_PATH wins over the cache', async () => {
    const cached = await cacheWithModel();
    const other = await cacheWithModel();
    const found = await findLocalSummarizer({
      BATON_CACHE_DIR: cached.cacheDir,
      DEMO_LOCAL_MODEL_PATH: path.join(other.cacheDir, 'models', `${other.name}.gguf`),
    });
    expect(found.found && found.name).toBe(other.name);
    if (found.found) {
      expect(found.settings.compressor.summarizerInputBudget).toBeGreaterThan(0);
      await found.model.dispose();
    }
  });

  it('without a model: the receipt, and the banner says how to fetch one', {
    timeout: 120_000,
  }, async () => {
    const state = await stateOf({ BATON_CACHE_DIR: path.join(folder, `empty-${random()}`) });
    expect(state.model).toMatchObject({ offline: true, offlineSummarizer: 'receipt' });
    const banner = summarizerBanner(state.model);
    expect(banner).toContain("Baton's deterministic receipt");
    expect(banner).toContain('no local model found');
    expect(banner).toContain('fetch-model');
  });

  it('a configured provider is not replaced by the local model', { timeout: 120_000 }, async () => {
    const { cacheDir } = await cacheWithModel();
    const state = await stateOf({ BATON_CACHE_DIR: cacheDir, OPENAI_API_KEY: 'test-key' });
    expect(state.model).toMatchObject({ provider: 'openai', offline: false });
    expect(state.model.offlineSummarizer).toBeUndefined();
  });

  it('DEMO_LOCAL_MODEL=off keeps the receipt even with a model present', async () => {
    const { cacheDir } = await cacheWithModel();
    const found = await findLocalSummarizer({ BATON_CACHE_DIR: cacheDir, DEMO_LOCAL_MODEL: 'off' });
    expect(found).toEqual({
      found: false,
      reason: expect.stringContaining('DEMO_LOCAL_MODEL=off'),
    });
  });
});
