import { decodeBase64 } from './decode-base64.js';
import { isPlaceholder, isTemplate } from './secret-heuristics.js';
import type { KeyedMatch } from './secret-rules.js';

// A YAML document of kind Secret (quoted or not, any case: scanners' fixtures write `secret`).
const secretKind = /^[ \t]*["']?kind["']?[ \t]*:[ \t]*["']?secret["']?[ \t]*$/im;
const documentBreak = /^---[ \t]*$/gm;
const blockHead = /^([ \t]*)["']?(data|stringData)["']?[ \t]*:[ \t]*$/;
const entry = /^([ \t]+)["']?[\w.-]+["']?[ \t]*:[ \t]*(.*?)[ \t]*$/;
const base64Value = /^[A-Za-z0-9+/]+={0,2}$/;
const blockScalar = /^[|>][-+]?\d?$/;

/**
 * Values under `data:` and `stringData:` of a Kubernetes `kind: Secret` manifest, whatever their
 * key is called: `data` holds each secret base64-encoded (a short password makes a short value,
 * 12 characters for 8), `stringData` in the clear. Block scalars (`tls.key: |`) count to the end of their
 * indentation. Other kinds (a ConfigMap's `data:`) and other documents of the same file stay.
 * One pass over the lines: linear in the text.
 */
export function findKubernetesSecretData(text: string): KeyedMatch[] {
  const found: KeyedMatch[] = [];
  if (!/secret/i.test(text) || !/data["']?[ \t]*:/.test(text)) return found;
  const breaks = [0];
  documentBreak.lastIndex = 0;
  for (let match = documentBreak.exec(text); match; match = documentBreak.exec(text)) {
    breaks.push(match.index + match[0].length);
  }
  breaks.push(text.length);
  if (jsonSecretKind.test(text)) scanJson(text, found);
  for (let index = 0; index + 1 < breaks.length; index++) {
    const from = breaks[index]!;
    const to = breaks[index + 1]!;
    const document = text.slice(from, to);
    if (secretKind.test(document)) scanDocument(document, from, found);
  }
  return found;
}

// `kubectl get secret -o json`: `"kind": "Secret"` and a flat `"data": {…}` (or `stringData`) map.
const jsonSecretKind = /"kind"\s*:\s*"Secret"/;
const jsonBlock = /"(data|stringData)"\s*:\s*\{([^{}]{0,100000})\}/g;
const jsonPair = /"[\w.-]+"\s*:\s*"([^"\\]*)"/g;

function scanJson(text: string, found: KeyedMatch[]): void {
  jsonBlock.lastIndex = 0;
  for (let block = jsonBlock.exec(text); block; block = jsonBlock.exec(text)) {
    const body = block[2]!;
    const bodyStart = block.index + block[0].length - 1 - body.length;
    jsonPair.lastIndex = 0;
    for (let pair = jsonPair.exec(body); pair; pair = jsonPair.exec(body)) {
      const value = pair[1]!;
      if (!acceptValue(value, block[1] === 'data')) continue;
      const start = bodyStart + pair.index + pair[0].length - 1 - value.length;
      found.push({ kind: 'kubernetes-secret', start, end: start + value.length });
    }
  }
}

function scanDocument(document: string, offset: number, found: KeyedMatch[]): void {
  // The enclosing block: its indentation and whether values are encoded.
  let block: { indent: number; encoded: boolean } | undefined;
  // An open block scalar under the block: its key's indentation and where its text starts.
  let scalar: { indent: number; start: number; end: number } | undefined;
  const closeScalar = () => {
    if (scalar && scalar.start >= 0) {
      found.push({ kind: 'kubernetes-secret', start: scalar.start, end: scalar.end });
    }
    scalar = undefined;
  };
  let lineStart = 0;
  while (lineStart <= document.length) {
    let lineEnd = document.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = document.length;
    const line = document.slice(lineStart, lineEnd).replace(/\r$/, '');
    const indent = /^[ \t]*/.exec(line)![0].length;
    const blank = line.trim().length === 0;
    if (scalar && (blank || indent > scalar.indent)) {
      if (!blank) {
        if (scalar.start < 0) scalar.start = offset + lineStart + indent;
        scalar.end = offset + lineStart + line.length;
      }
    } else {
      closeScalar();
      if (!blank && block && indent <= block.indent) block = undefined;
      const head = blockHead.exec(line);
      if (head) {
        block = { indent: head[1]!.length, encoded: head[2] === 'data' };
      } else if (block && !blank) {
        const pair = entry.exec(line);
        if (pair) {
          const raw = pair[2]!;
          const valueStart = lineStart + line.length - raw.length;
          if (blockScalar.test(raw)) {
            scalar = { indent, start: -1, end: -1 };
          } else {
            const quote = /^["']/.test(raw) && raw.endsWith(raw[0]!) && raw.length >= 2 ? 1 : 0;
            const value = raw.slice(quote, raw.length - quote);
            if (acceptValue(value, block.encoded)) {
              const start = offset + valueStart + quote;
              found.push({ kind: 'kubernetes-secret', start, end: start + value.length });
            }
          }
        }
      }
    }
    if (lineEnd === document.length) break;
    lineStart = lineEnd + 1;
  }
  closeScalar();
}

// gitleaks' Kubernetes rule takes encoded values of 10+ base64 characters (7+ bytes: `YWRtaW4=`,
// "admin", stays); a value in the clear counts from the same 7 characters.
const minimumEncoded = 10;
const minimumClear = 7;

function acceptValue(value: string, encoded: boolean): boolean {
  if (isTemplate(value)) return false;
  if (encoded) {
    // What reads as a placeholder is the secret, not its base64: the encoding of a random password
    // can repeat one letter (`WE9WWlRWSWw=` holds `XOVZTVIl`), and `Y2hhbmdlbWU=` is `changeme`.
    // Bytes that are not text (`xxxxxxxxxxxx` decodes to none) are judged as written.
    const decoded = decodeBase64(value);
    if (isPlaceholder(decoded !== undefined && printable.test(decoded) ? decoded : value)) {
      return false;
    }
    return (
      base64Value.test(value) &&
      value.length % 4 === 0 &&
      value.replace(/=+$/, '').length >= minimumEncoded
    );
  }
  if (isPlaceholder(value)) return false;
  return value.length >= minimumClear && !/^(?:null|true|false)$/i.test(value);
}

const printable = /^[\x20-\x7e]+$/;
