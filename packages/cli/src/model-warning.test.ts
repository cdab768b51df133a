import { resolveModel, unknownModel } from '@baton/tokens';
import { describe, expect, it } from 'vitest';
import { KNOWN_MODEL_IDS } from './known-models.js';
import { resolveCliModel } from './model-warning.js';

describe('resolveCliModel', () => {
  it('suggests only ids that @baton/tokens knows', () => {
    for (const id of KNOWN_MODEL_IDS) {
      expect(resolveModel(id), id).not.toEqual(unknownModel);
      expect(resolveCliModel(id), id).toMatchObject({ id, known: true, readAs: undefined });
    }
  });

  it('reads other spellings of a known id as it', () => {
    expect(resolveCliModel('gpt4o')).toMatchObject({ id: 'gpt-4o', known: true, readAs: 'gpt-4o' });
    expect(resolveCliModel('GPT 4.1 mini')).toMatchObject({ known: true, readAs: 'gpt-4.1-mini' });
    expect(resolveCliModel('claude_sonnet_4.5')).toMatchObject({ known: true });
  });

  it('suggests the closest ids for a typo, and nothing for a long random value', () => {
    for (const id of KNOWN_MODEL_IDS) {
      // Swap two neighbouring letters: a typo, unless it still resolves to a family.
      const at = id.search(/[a-z]{2}/);
      if (at < 0) continue;
      const typo = `${id.slice(0, at)}${id[at + 1]}${id[at]}${id.slice(at + 2)}`;
      const model = resolveCliModel(typo);
      if (model.known) continue;
      expect(model.suggestions, typo).toContain(id);
    }
    expect(resolveCliModel('x'.repeat(40)).suggestions).toEqual([]);
  });
});
