import { type Message, PeerOutputError } from '../messages.ts';
import type { SummarizerMode } from '../summarizers.ts';

export interface CompactArgs {
  messages: Message[];
  targetTokens: number;
  mode: SummarizerMode;
  /** The loopback summariser server (`/v1` base URL) in `local` mode. */
  summarizerUrl?: string;
}

export interface Peer {
  /** Row name, with the package and version that ran. */
  name: string;
  /** True when the peer calls a summariser (then it runs once per summariser mode). */
  usesSummarizer: boolean;
  /** Compacts; returns the conversation the model would be sent next, in the harness's message shape. */
  compact(args: CompactArgs): Promise<Message[]>;
}

/** The summariser URL of a local-model run; its absence is a harness bug, not a peer failure. */
export function requireUrl(url: string | undefined): string {
  if (url === undefined) throw new PeerOutputError('harness', 'local mode without a server URL');
  return url;
}
