import { redactSecrets } from '@baton/fallback';

/**
 * A file name as the CLI prints it (report headers, `--json`, progress, usage errors): a token
 * pasted where a name goes (`baton count ghp_….json`) is as much a secret as any other, so known
 * secret shapes are redacted; every ordinary name prints unchanged.
 */
export function shownFileName(file: string): string {
  return redactSecrets(file).text;
}
