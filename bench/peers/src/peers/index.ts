/** TypeScript peers other than Baton and the AI SDK, each in its own file. */
import type { Peer } from './types.ts';

export async function typescriptPeers(_version: (pkg: string) => string): Promise<Peer[]> {
  return [];
}
