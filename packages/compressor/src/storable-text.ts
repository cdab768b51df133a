// NUL, or an unpaired UTF-16 surrogate: a high one not followed by a low one, or a low one not
// preceded by a high one.
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text Baton writes itself (an insert, a fallback reason, a fact it appends), with NUL and unpaired
 * surrogates replaced by U+FFFD. Both can come from the span (a tool that printed a binary file) or
 * from a function summariser; a lineage store on PostgreSQL refuses them in a compaction's summary
 * and event (NUL) or turns them into U+FFFD on the way to UTF-8 (surrogates), and a provider may
 * refuse a request body holding a lone surrogate. The app's own messages are never changed. Linear.
 */
export function storableText(text: string): string {
  unstorable.lastIndex = 0;
  return unstorable.test(text) ? text.replace(unstorable, '\ufffd') : text;
}
