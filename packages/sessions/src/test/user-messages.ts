import type { SessionMessage } from '../types.js';

/** `n` distinct user messages (`${label} 0`, `${label} 1`, ...), for tests that fill sessions. */
export function userMessages(n: number, label = 'message'): SessionMessage[] {
  return Array.from({ length: n }, (_, index) => ({ role: 'user', content: `${label} ${index}` }));
}
