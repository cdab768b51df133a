// tiktoken splits text with Rust's regex tables, which are Unicode 16.0; Node 24's are 17.0. The
// letters, numbers and marks assigned in 17.0 are unassigned (neither letter, number nor space) to
// tiktoken, so its split treats them as punctuation. Found by comparing each character's count in
// several contexts with `@dqbd/tiktoken`'s (create-piece-counter.test.ts draws them); on an older
// Node they are unassigned to JavaScript as well, and leaving them out changes nothing.

/** A `v`-mode class of the letters, numbers and marks newer than tiktoken's Unicode tables. */
export const newerThanTiktoken =
  '[' +
  '\\u{88f}\\u{c5c}\\u{cdc}\\u{1acf}-\\u{1add}\\u{1ae0}-\\u{1aeb}\\u{a7ce}-\\u{a7cf}' +
  '\\u{a7d2}\\u{a7d4}\\u{a7f1}\\u{10940}-\\u{10959}\\u{10ec5}-\\u{10ec7}' +
  '\\u{10efa}-\\u{10efb}\\u{11b60}-\\u{11b67}\\u{11db0}-\\u{11ddb}\\u{11de0}-\\u{11de9}' +
  '\\u{16ea0}-\\u{16eb8}\\u{16ebb}-\\u{16ed3}\\u{16ff2}-\\u{16ff6}\\u{187f8}-\\u{187ff}' +
  '\\u{18d09}-\\u{18d1e}\\u{18d80}-\\u{18df2}\\u{1e6c0}-\\u{1e6de}\\u{1e6e0}-\\u{1e6f5}' +
  '\\u{1e6fe}-\\u{1e6ff}\\u{2b73a}-\\u{2b73f}\\u{2cea2}-\\u{2cead}\\u{323b0}-\\u{33479}' +
  ']';
