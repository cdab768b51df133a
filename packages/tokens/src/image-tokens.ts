import { InvalidInputError } from './invalid-input-error.js';
import { normaliseModelId } from './resolve-model.js';

/** How a model prices image input. */
export type ImagePricing =
  | { kind: 'tiles'; base: number; tile: number }
  | { kind: 'patches'; multiplier: number }
  | { kind: 'pixels'; pixelsPerToken: number; longestEdge: number; maxTokens: number };

/** OpenAI's tile pricing of GPT-4o, GPT-4.1 and GPT-4.5: the default for every other model. */
const defaultPricing: ImagePricing = Object.freeze({ kind: 'tiles', base: 85, tile: 170 });

// OpenAI's published image costs per model ("Calculating costs" in the vision guide), first match
// wins; Anthropic's published estimate (width x height / 750 after fitting the long edge into
// 1,568 px, about 1,600 at most). Other providers (Gemini, open models) are priced with the default.
const pricingRules: ReadonlyArray<readonly [RegExp, ImagePricing]> = [
  [/^gpt-4\.1-mini|^gpt-5(?:\.\d+)?-mini/, { kind: 'patches', multiplier: 1.62 }],
  [/^gpt-4\.1-nano|^gpt-5(?:\.\d+)?-nano/, { kind: 'patches', multiplier: 2.46 }],
  [/^o4-mini/, { kind: 'patches', multiplier: 1.72 }],
  [/^gpt-4o-mini/, { kind: 'tiles', base: 2833, tile: 5667 }],
  [/^gpt-5/, { kind: 'tiles', base: 70, tile: 140 }],
  [/^o1|^o3/, { kind: 'tiles', base: 75, tile: 150 }],
  [/^computer-use-preview/, { kind: 'tiles', base: 65, tile: 129 }],
  [/^claude/, { kind: 'pixels', pixelsPerToken: 750, longestEdge: 1568, maxTokens: 1600 }],
];

/**
 * Image pricing for a model id, normalised as `resolveModel` does (provider prefixes such as
 * `openai/` or `anthropic:`, Bedrock regions, `:latest` tags and version suffixes removed).
 * Unknown and non-OpenAI, non-Anthropic models get OpenAI's GPT-4o tile pricing.
 */
export function imagePricing(modelId: string | undefined): ImagePricing {
  if (modelId === undefined) return defaultPricing;
  const { name } = normaliseModelId(modelId);
  for (const [pattern, pricing] of pricingRules) if (pattern.test(name)) return pricing;
  return defaultPricing;
}

const details = new Set(['low', 'high', 'auto']);

/**
 * Prompt tokens of an image. Default pricing is OpenAI's tile formula of GPT-4o / GPT-4.1 /
 * GPT-4.5: `low` detail costs a flat 85; otherwise the image is scaled to fit 2048x2048, then down
 * so its shorter side is at most 768, and each 512x512 tile costs 170 on top of the base 85. Pass
 * `model` for other models' published pricing: GPT-5 (70 + 140 per tile), o1/o3 (75 + 150),
 * gpt-4o-mini (2,833 + 5,667), the 32-px patch models (gpt-4.1-mini and gpt-5-mini x1.62,
 * gpt-4.1-nano and gpt-5-nano x2.46, o4-mini x1.72; at most 1,536 patches, `detail` ignored) and
 * Claude (width x height / 750 after fitting the long edge into 1,568 px, at most 1,600).
 * A width or height that is not a positive number gives `unknownImageTokens` for that pricing.
 */
export function imageTokens(
  width: number,
  height: number,
  detail: 'low' | 'high' | 'auto' = 'auto',
  model?: string,
): number {
  if (!details.has(detail)) {
    throw new InvalidInputError({
      path: 'detail',
      message: `expected 'low', 'high' or 'auto', got ${JSON.stringify(detail)}`,
    });
  }
  if (model !== undefined && typeof model !== 'string') {
    throw new InvalidInputError({ path: 'model', message: 'expected a model id string' });
  }
  return priceImage(width, height, detail, imagePricing(model));
}

/** Tokens of an image of the given size (unknown size: a 1920x1080 screenshot) under `pricing`. */
export function priceImage(
  width: number,
  height: number,
  detail: 'low' | 'high' | 'auto',
  pricing: ImagePricing,
): number {
  let w = width;
  let h = height;
  if (!(w > 0 && h > 0 && Number.isFinite(w) && Number.isFinite(h))) {
    w = 1920;
    h = 1080;
  }
  if (pricing.kind === 'patches') {
    let patches = Math.ceil(w / 32) * Math.ceil(h / 32);
    if (patches > 1536) {
      let r = Math.sqrt((32 * 32 * 1536) / (w * h));
      r *= Math.min(
        Math.floor((w * r) / 32) / ((w * r) / 32),
        Math.floor((h * r) / 32) / ((h * r) / 32),
      );
      patches = Math.min(1536, Math.ceil((w * r) / 32) * Math.ceil((h * r) / 32));
    }
    return Math.ceil(patches * pricing.multiplier);
  }
  if (pricing.kind === 'pixels') {
    const fit = Math.min(1, pricing.longestEdge / Math.max(w, h));
    return Math.min(pricing.maxTokens, Math.ceil((w * fit * (h * fit)) / pricing.pixelsPerToken));
  }
  if (detail === 'low') return pricing.base;
  const fit = Math.min(1, 2048 / Math.max(w, h));
  w *= fit;
  h *= fit;
  const shorten = Math.min(1, 768 / Math.min(w, h));
  w *= shorten;
  h *= shorten;
  return pricing.base + pricing.tile * Math.ceil(w / 512) * Math.ceil(h / 512);
}

/**
 * Cost assumed for an image whose size cannot be read, under the default pricing: a 1920x1080
 * screenshot at high detail (6 tiles), the common case in agent transcripts. Other pricings
 * assume the same screenshot.
 */
export const unknownImageTokens = 85 + 170 * 6;

/**
 * Width and height read from the header of a PNG, GIF, WebP or JPEG, or undefined. Only the first
 * bytes are inspected; nothing is decoded.
 */
export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  const b = bytes;
  const at = (i: number) => b[i] ?? 0;
  const u16be = (i: number) => (at(i) << 8) | at(i + 1);
  const u16le = (i: number) => at(i) | (at(i + 1) << 8);
  const u32be = (i: number) =>
    ((at(i) << 24) >>> 0) + (at(i + 1) << 16) + (at(i + 2) << 8) + at(i + 3);
  if (b.length >= 24 && at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) {
    return { width: u32be(16), height: u32be(20) };
  }
  if (b.length >= 10 && at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46) {
    return { width: u16le(6), height: u16le(8) };
  }
  if (b.length >= 30 && at(0) === 0x52 && at(1) === 0x49 && at(8) === 0x57 && at(9) === 0x45) {
    const chunk = String.fromCharCode(at(12), at(13), at(14), at(15));
    if (chunk === 'VP8X')
      return {
        width: 1 + (at(24) | (at(25) << 8) | (at(26) << 16)),
        height: 1 + (at(27) | (at(28) << 8) | (at(29) << 16)),
      };
    if (chunk === 'VP8 ') return { width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    return undefined;
  }
  if (b.length >= 4 && at(0) === 0xff && at(1) === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (at(i) !== 0xff) return undefined;
      const marker = at(i + 1);
      const length = u16be(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (
        marker >= 0xc0 &&
        marker <= 0xcf &&
        marker !== 0xc4 &&
        marker !== 0xc8 &&
        marker !== 0xcc
      ) {
        return { width: u16be(i + 7), height: u16be(i + 5) };
      }
      i += 2 + length;
    }
  }
  return undefined;
}
