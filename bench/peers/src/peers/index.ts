/** TypeScript peers other than Baton and the AI SDK, each in its own file. */
import type { Unavailable } from '../completeness.ts';
import { langchainPeer } from './langchain.ts';
import { mastraPeers } from './mastra.ts';
import type { Peer } from './types.ts';

// TanStack AI's documented compaction helpers; the peer runs only if the installed package exports them.
const TANSTACK_EXPORTS = ['evictOldest', 'summarizeOldest', 'clearToolResults'];

export async function typescriptPeers(
  version: (pkg: string) => string,
): Promise<{ peers: Peer[]; unavailable: Unavailable[] }> {
  const unavailable: Unavailable[] = [];
  const peers: Peer[] = [
    langchainPeer(version('langchain')),
    ...mastraPeers(version('@mastra/core')),
  ];
  const tanstack = (await import('@tanstack/ai')) as Record<string, unknown>;
  const missing = TANSTACK_EXPORTS.filter((name) => typeof tanstack[name] !== 'function');
  if (missing.length > 0) {
    unavailable.push({
      key: 'TanStack AI compaction',
      name: `TanStack AI compaction (@tanstack/ai ${version('@tanstack/ai')}, npm latest)`,
      reason: `not published: the package exports none of ${missing.join(', ')} (no compaction API to call)`,
    });
  }
  return { peers, unavailable };
}
