/** The files a receipt's files section lists, in order, each with whether it is under `Edited:`. */
export function listedFiles(section: string | undefined): Array<{ path: string; edited: boolean }> {
  const listed: Array<{ path: string; edited: boolean }> = [];
  for (const line of (section ?? '').split('\n')) {
    const label = /^(Edited|Read or named): /.exec(line);
    if (!label) continue;
    // `(msg N)` positions follow their path; everything else on the line is a path.
    const words = line
      .slice(label[0].length)
      .replace(/ \(msg \d+\)/g, '')
      .split(' ');
    for (const path of words) listed.push({ path, edited: label[1] === 'Edited' });
  }
  return listed;
}
