// Base64 of a file whose first bytes are a media or document signature: PNG, JPEG, GIF, PDF,
// WebAssembly, RIFF (WebP, WAV). Screenshots and fixtures are pasted this way, wrapped or not;
// keys and tokens are random bytes and never open with one. Archives are left out: a zipped
// `.env` is a secret bundle.
const signatures = ['iVBORw0KGgo', '/9j/', 'R0lGOD', 'JVBERi0', 'AGFzbQ', 'UklGR'];

// The signed first line, then lines continued after a line break (raw with indentation, or
// escaped once or twice as in JSON): base64 characters never hold a break, so every repetition
// starts unambiguously and the match is linear.
// A continued line is base64 to its end: a token on the next line (`tok_…`) is not part of it.
const lineEnd = `(?=[\\s"'\\\\,;)}\\]]|$)`;
const encodedFile = new RegExp(
  `(?<![A-Za-z0-9+/])(?:${signatures.map((signature) => signature.replace('/', '\\/')).join('|')})[A-Za-z0-9+/]*={0,2}${lineEnd}(?:(?:\\r?\\n[ \\t]*|\\\\{1,2}r?\\\\{0,2}n)[A-Za-z0-9+/]+={0,2}${lineEnd})*`,
  'g',
);

/** Ranges of `text` holding base64 of a media or document file, wrapped over lines or not. */
export function encodedFileRanges(text: string): Array<[number, number]> {
  if (!signatures.some((signature) => text.includes(signature))) return [];
  const ranges: Array<[number, number]> = [];
  encodedFile.lastIndex = 0;
  for (let file = encodedFile.exec(text); file; file = encodedFile.exec(text)) {
    ranges.push([file.index, file.index + file[0].length]);
  }
  return ranges;
}
