import { isWordShaped } from './secret-heuristics.js';

// Words that name a credential: a prefix built of them announces a key, not a thing's name.
const credentialWord =
  /secret|pass|pwd|token|key|cred|auth|api|sess|priv|sign|access|bearer|cookie/;

/**
 * True when a lower-case prefix opens with a word (`worker-`, `search.`, `post_`, `login-fix-`):
 * how people and tools name things that carry a short hex suffix (branches, pods and their
 * events, temp directories, cache keys, CSS module classes, database ids). Issuers abbreviate
 * (`sk`, `xoxb`, `ghp`) or write capitals (`PMAK`), and a prefix naming a credential stays a key's.
 */
export function isWordNamedPrefix(prefix: string): boolean {
  if (!/^[a-z][a-z0-9_-]*$/.test(prefix) || credentialWord.test(prefix)) return false;
  return isWordShaped(prefix.split(/[_-]/)[0]!);
}
