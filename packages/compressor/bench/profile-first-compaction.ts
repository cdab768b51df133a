/**
 * The first compaction of never-seen 1,000-message real histories (summarize strategy), repeated
 * with fresh salts, for `node --cpu-prof`: where the cold path spends its CPU.
 * Run: pnpm build && node --cpu-prof --cpu-prof-dir=<dir> bench/profile-first-compaction.ts [rounds]
 */
import { createTokenCounter } from '@baton/tokens';
import { ContextCompressor } from '../dist/index.js';
import { benchSummary, realHistory, salted } from './cold-and-large.ts';

const rounds = Number(process.argv[2] ?? 10);
const history = realHistory(1_000);
const counter = createTokenCounter({ encoding: 'o200k_base' });
const tokens = counter.countMessages(history as never);
const threadMs = () => {
  const usage = process.threadCpuUsage();
  return (usage.user + usage.system) / 1_000;
};
for (let round = 0; round < rounds; round++) {
  const messages = salted(history, `prof${round}x${process.pid}`);
  const compressor = new ContextCompressor({ counter, summarizer: async () => benchSummary });
  const started = threadMs();
  await compressor.compress(messages as never, {
    targetTokens: Math.floor(tokens / 2),
    strategy: 'summarize',
  });
  console.log(`round ${round}: ${(threadMs() - started).toFixed(0)} ms CPU`);
}
