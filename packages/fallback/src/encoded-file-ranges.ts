// Base64 of a file whose first bytes are a media or document signature: PNG, JPEG, GIF, PDF,
// WebAssembly, RIFF (WebP, WAV). Screenshots and fixtures are pasted this way, wrapped or not;
// keys and tokens are random bytes and never open with one. Archives are left out: a zipped
// `.env` is a secret bundle.
const signatures = ['iVBORw0KGgo', '/9j/', 'R0lGOD', 'JVBERi0', 'AGFzbQ', 'UklGR'];

// A line is base64 to its end: a token on the next line (`tok_…`) is not part of it.
const lineEnd = `(?=[\\s"'\\\\,;)}\\]]|$)`;
// The signed first line.
const signedLine = new RegExp(
  `(?<![A-Za-z0-9+/])(?:${signatures.map((signature) => signature.replace('/', '\\/')).join('|')})[A-Za-z0-9+/]*={0,2}${lineEnd}`,
  'g',
);
// A line continued after a break (raw with indentation, or escaped once or twice as in JSON).
const continuedLine = new RegExp(
  `(?:\\r?\\n[ \\t]*|\\\\{1,2}r?\\\\{0,2}n)([A-Za-z0-9+/]+={0,2})${lineEnd}`,
  'y',
);

/**
 * Ranges of `text` holding base64 of a media or document file, wrapped over lines or not. An
 * encoder wraps at one width: the lines after the signed one are as long, but for a shorter or
 * padded last line once two lines have shown the width, after which the file has ended. A base64
 * line of another width below it (a bare key printed next) is not part of the file; neither is
 * the short second line of a file of two lines (it is read like any other text).
 */
/** Whether a signature stands in `text`: a loop, where `some` made a closure per text redacted. */
function holdsSignature(text: string): boolean {
  for (let at = 0; at < signatures.length; at++) if (text.includes(signatures[at]!)) return true;
  return false;
}

// Shared when there is none (most texts): a fresh empty list per text redacted added up.
const noRanges: ReadonlyArray<[number, number]> = [];

export function encodedFileRanges(text: string): ReadonlyArray<[number, number]> {
  if (!holdsSignature(text)) return noRanges;
  const ranges: Array<[number, number]> = [];
  signedLine.lastIndex = 0;
  for (let file = signedLine.exec(text); file; file = signedLine.exec(text)) {
    const width = file[0].length;
    let end = file.index + width;
    let lines = 1;
    let open = !file[0].endsWith('=');
    while (open) {
      continuedLine.lastIndex = end;
      const line = continuedLine.exec(text);
      if (line === null) break;
      const length = line[1]!.length;
      // The wrap width is known once a second line repeats it: before that, a shorter line may
      // be a key printed below a file that fitted on one line.
      if (length > width || (length < width && lines < 2)) break;
      end = continuedLine.lastIndex;
      lines++;
      open = length === width && !line[1]!.endsWith('=');
    }
    ranges.push([file.index, end]);
    signedLine.lastIndex = Math.max(signedLine.lastIndex, end);
  }
  return ranges;
}
