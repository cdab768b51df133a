import { readFileSync } from 'node:fs';

export interface ReadGettextCatalogueOptions {
  /** Read the original (msgid) strings instead of the translations. Default: false. */
  originals?: boolean;
  /** How the strings' bytes are decoded. Default: `utf8`. */
  encoding?: BufferEncoding;
}

/**
 * The strings of a gettext `.mo` catalogue (little- or big-endian): its translations, or with
 * `originals` the strings they translate. Plural forms (joined by NUL) come back one by one; a file
 * that is no catalogue gives [].
 */
export function readGettextCatalogue(
  path: string,
  { originals = false, encoding = 'utf8' }: ReadGettextCatalogueOptions = {},
): string[] {
  const data = readFileSync(path);
  if (data.length < 28) return [];
  const magic = data.readUInt32LE(0);
  const little = magic === 0x950412de;
  if (!little && magic !== 0xde120495) return [];
  const read = (offset: number) => (little ? data.readUInt32LE(offset) : data.readUInt32BE(offset));
  const count = read(8);
  const table = read(originals ? 12 : 16);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = read(table + i * 8);
    const offset = read(table + i * 8 + 4);
    if (offset + length > data.length) break;
    out.push(...data.toString(encoding, offset, offset + length).split('\0'));
  }
  return out;
}
