import type { Message } from '../messages.ts';
import type { SummarizerMode } from '../summarizers.ts';

export interface CompactArgs {
  messages: Message[];
  targetTokens: number;
  mode: SummarizerMode;
}

export interface Peer {
  /** Row name, with the package and version that ran. */
  name: string;
  /** True when the peer calls a summariser (then it runs once per summariser mode). */
  usesSummarizer: boolean;
  /** Compacts; returns the conversation the model would be sent next, in the harness's message shape. */
  compact(args: CompactArgs): Promise<Message[]>;
}
