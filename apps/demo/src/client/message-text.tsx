import type { ReactNode } from 'react';

/** Renders the little Markdown the agents write: fenced code, **bold** and `code`. */
export function MessageText({ text }: { text: string }) {
  const nodes: ReactNode[] = [];
  let key = 0;
  // Odd positions after splitting on fences are code blocks.
  for (const [position, block] of text.split(/```[a-z]*\n?/).entries()) {
    if (position % 2 === 1) {
      nodes.push(<pre key={key++}>{block.replace(/\n$/, '')}</pre>);
      continue;
    }
    for (const paragraph of block.split(/\n{2,}/)) {
      if (paragraph.trim() !== '') nodes.push(<p key={key++}>{inline(paragraph)}</p>);
    }
  }
  return <>{nodes}</>;
}

function inline(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  const pattern = /\*\*([^*]+)\*\*|`([^`]+)`/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    nodes.push(
      match[1] !== undefined ? (
        <strong key={match.index}>{match[1]}</strong>
      ) : (
        <code key={match.index}>{match[2]}</code>
      ),
    );
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}
