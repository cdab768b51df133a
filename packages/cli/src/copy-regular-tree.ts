import { constants, createWriteStream } from 'node:fs';
import { lstat, mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

// Opening with O_NOFOLLOW fails on a symbolic link instead of following it, and O_NONBLOCK keeps a
// FIFO from blocking the open (it is then refused by its type). Windows has neither flag: there the
// entry's own lstat is the only check.
const readFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Copies the folders and regular files of `source` into `destination` (created), nothing else: a
 * link, FIFO, socket or device is left out. Each file is judged by the handle it is copied from
 * (opened without following a link, then checked to be a regular file), so an entry swapped for a
 * link after it was listed fails to open rather than being copied as a link or through one.
 * `skip(path)` leaves an entry out by name.
 */
export async function copyRegularTree(
  source: string,
  destination: string,
  skip: (path: string) => boolean = () => false,
): Promise<void> {
  await mkdir(destination);
  for (const entry of await readdir(source, { withFileTypes: true })) {
    const from = join(source, entry.name);
    const to = join(destination, entry.name);
    if (skip(from)) continue;
    if (entry.isDirectory()) {
      // Listed as a folder, then looked at again: a folder swapped for a link is left out. (Were it
      // swapped after this look, the copy would still hold only folders and files made here.)
      if ((await lstat(from)).isDirectory()) await copyRegularTree(from, to, skip);
      continue;
    }
    if (!entry.isFile()) continue;
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(from, readFlags);
    } catch (error) {
      // ELOOP: the entry became a link since it was listed.
      if ((error as NodeJS.ErrnoException).code === 'ELOOP') continue;
      throw error;
    }
    try {
      if (!(await handle.stat()).isFile()) continue;
      await pipeline(
        handle.createReadStream({ autoClose: false }),
        createWriteStream(to, { flags: 'wx' }),
      );
    } finally {
      await handle.close();
    }
  }
}
