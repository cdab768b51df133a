import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './test-utils/run-built-cli.js';

/**
 * Issue 17 item 3, end to end: text without whitespace (a minified bundle, a base64 blob, a CJK
 * document) must neither crash the tokenizer nor take more than linear time. The fix lives in
 * @baton/tokens; these tests drive the built CLI. The timeouts are generous on purpose: they catch
 * a crash or a hang, and the figures belong to the benchmarks, not to this test.
 * Before the @baton/tokens fix these fail: the 1 MB run ends in `baton: unreachable` (a WASM
 * RuntimeError) and the Japanese file takes minutes.
 */
const folder = mkdtempSync(join(tmpdir(), 'baton-hostile-'));

/** A transcript whose middle holds `text` as a tool output, so compaction may drop it. */
function transcriptWith(name: string, text: string): string {
  const messages = [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Read the bundle and tell me what it exports.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'x' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'read_file',
          output: { type: 'text', value: text },
        },
      ],
    },
    { role: 'assistant', content: 'It exports one function.' },
    { role: 'user', content: 'Thanks. Now summarise the README.' },
  ];
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(messages));
  return file;
}

// Japanese prose without spaces: kana and kanji drawn at random (new on every run), no whitespace.
function japanese(characters: number): string {
  const kana =
    'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん';
  const kanji = '日本語文章検索結果設定変更確認処理完了開始終了情報管理画面表示入力出力';
  const bytes = randomBytes(characters);
  return Array.from(bytes, (byte) =>
    byte % 3 === 0 ? kanji.charAt(byte % kanji.length) : kana.charAt(byte % kana.length),
  ).join('');
}

const cases: Array<[string, () => string]> = [
  ['a 1 MB run of one letter', () => 'a'.repeat(1024 * 1024)],
  ['a 1 MB base64 blob', () => randomBytes(768 * 1024).toString('base64')],
  ['300 KB of Japanese text', () => japanese(100_000)],
];

describe('baton count and compact on text without whitespace (built binary)', () => {
  it.each(cases)('%s', { timeout: 300_000 }, async (name, make) => {
    const file = transcriptWith(`${name.replaceAll(' ', '-')}.json`, make());
    const count = await runBuiltCli(['count', file, '--json'], { timeoutMs: 120_000 });
    expect(count.stderr).not.toMatch(/RuntimeError|unreachable/);
    expect(count.code, count.stderr).toBe(0);
    const counted = JSON.parse(count.stdout) as { total: number; messages: { tokens: number }[] };
    expect(counted.messages[3]!.tokens).toBeGreaterThan(1_000);

    const compact = await runBuiltCli(
      ['compact', file, '--window', '16k', '--strategy', 'truncate', '--json'],
      { timeoutMs: 120_000 },
    );
    expect(compact.stderr).not.toMatch(/RuntimeError|unreachable/);
    expect(compact.code, compact.stderr).toBe(0);
    const report = JSON.parse(compact.stdout) as {
      files: { report: { tokensBefore: number; tokensAfter: number } }[];
    };
    expect(report.files[0]!.report.tokensBefore).toBe(counted.total);
    expect(report.files[0]!.report.tokensAfter).toBeLessThanOrEqual(8_000);
  });
});
