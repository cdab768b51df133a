import { redactSecrets } from '@baton/fallback';

/**
 * Free text read back from a store (a session's title or model, a fallback reason) as the CLI
 * prints it: an application may have stored a secret in it, and the store keeps what it was given.
 */
export function redactedStoredText<Text extends string | null | undefined>(value: Text): Text {
  return (typeof value === 'string' ? redactSecrets(value).text : value) as Text;
}
