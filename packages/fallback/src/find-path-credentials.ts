import { nameAround } from './name-around.js';
import { readsAsName } from './reads-as-name.js';
import { acceptKeyedValue, type KeyedMatch, keyIsSecret } from './secret-rules.js';

/**
 * The segment of a URL or API path right after a segment that names credentials
 * (`/v1/tokens/<value>`, `/auth/token/<value>/revoke`, `/api/keys/<value>`, `/secrets/<value>`): a
 * REST path names the collection, then the member, and for credentials the member is often the
 * credential itself (a token looked up or revoked by its value). The collection is a credential
 * noun that the key-name judgement (`keyIsSecret`) reads as secret, the member a value under a
 * token's name (`acceptKeyedValue`, weak): generated, long enough, not words, and not a UUID (the id of a
 * credential, not the credential). A host (`//tokens.example.com/`) is no collection.
 *
 * Only in a URL or an API path (`/api/…`, `/v1/…`): a file path names files (`/run/secrets/<file>`).
 * A document database's path (Firestore's `…/documents/<collection>/<id>`) alternates collections
 * and document ids: the member there is an id.
 */
// Each segment holding a credential noun, found from the noun outward (most text holds none),
// then the member after it.
const memberAfter = /\/(?<value>[A-Za-z0-9._~+=%@-]{12,300})(?=[/?#&\s"'`)\]>,;|]|$)/y;

/** `deploy-key.pem`, `token.json`, `provider.js..`: a file named in a listing, not a value. */
const fileName = /\.[a-z]{2,4}(?:\.|$)/;
/**
 * A collection of credentials themselves (`tokens`, `api-keys`, `secrets`, `passwords`); `auth`,
 * `session` and `login` name routes and modules (`/auth/httpAuthSchemeProvider.js`).
 */
const credentialNoun = /token|key|secret|passw|credential/gi;
const webPath = /:\/\/[^/]|^\/(?:api|v\d+)(?:\/|$)/i;
const documentPath = /(?:^|\/)documents(?:\/|$)/;

/** The path before `at`, back to the whitespace or quote that starts it (at most 2,000 characters). */
function pathBefore(text: string, at: number): string {
  let start = at;
  while (start > 0 && at - start < 2000 && !/[\s"'`(<[]/.test(text[start - 1]!)) start--;
  return text.slice(start, at);
}

export function findPathCredentials(text: string, found: KeyedMatch[] = []): KeyedMatch[] {
  if (!text.includes('/')) return found;
  credentialNoun.lastIndex = 0;
  for (let hit = credentialNoun.exec(text); hit; hit = credentialNoun.exec(text)) {
    const [nameStart, nameEnd] = nameAround(text, hit.index, hit.index + hit[0].length);
    credentialNoun.lastIndex = nameEnd;
    // A segment: `/` before it (not `//`, a host) and after it.
    if (text[nameStart - 1] !== '/' || text[nameStart - 2] === '/') continue;
    const name = text.slice(nameStart, nameEnd);
    if (name.length < 3 || name.length > 41 || !/^[A-Za-z]/.test(name)) continue;
    if (keyIsSecret(name) === undefined) continue;
    memberAfter.lastIndex = nameEnd;
    const value = memberAfter.exec(text)?.groups?.value;
    if (value === undefined) continue;
    if (fileName.test(value) || readsAsName(value)) continue;
    if (!acceptKeyedValue(value, 'weak', false, true)) continue;
    const before = pathBefore(text, nameStart - 1);
    if (!webPath.test(before) || documentPath.test(before)) continue;
    const start = nameEnd + 1;
    found.push({ kind: 'secret', start, end: start + value.length });
  }
  return found;
}
