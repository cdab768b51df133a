import { redactSecrets } from '@baton/fallback';
import { escapeUnprintable } from './printable-text.js';

/**
 * A file or folder name as the CLI prints it (report headers, `--json`, progress, usage errors, the
 * store commands' data folder): a token pasted where a name goes (`baton count ghp_….json`) is as
 * much a secret as any other, so known secret shapes are redacted; and a name may hold terminal
 * control sequences or line breaks (a file unpacked from someone else's archive), so non-printable
 * characters are escaped. Every ordinary name prints unchanged.
 */
export function shownFileName(file: string): string {
  return escapeUnprintable(redactSecrets(file).text);
}
