import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { propertySeed } from './property-seed.js';

const saved = process.env.BATON_PROPERTY_SEED;
afterEach(() => {
  if (saved === undefined) delete process.env.BATON_PROPERTY_SEED;
  else process.env.BATON_PROPERTY_SEED = saved;
});

describe('propertySeed', () => {
  it('is configured for every property of the run', () => {
    expect(fc.readConfigureGlobal().seed).toBe(propertySeed());
  });

  it('follows the checked-out commit unless told otherwise', () => {
    delete process.env.BATON_PROPERTY_SEED;
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(propertySeed()).toBe(Number.parseInt(commit.slice(0, 8), 16) | 0);
  });

  it('takes an integer or random from BATON_PROPERTY_SEED and refuses anything else', () => {
    process.env.BATON_PROPERTY_SEED = '42';
    expect(propertySeed()).toBe(42);
    process.env.BATON_PROPERTY_SEED = 'random';
    expect(propertySeed()).toBeUndefined();
    process.env.BATON_PROPERTY_SEED = 'soon';
    expect(() => propertySeed()).toThrow(/BATON_PROPERTY_SEED/);
  });
});
