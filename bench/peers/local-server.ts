/**
 * Starts the loopback summariser server (`src/local-server.ts`) on the local model of `@baton/local-model`
 * and prints `{"url": ...}` on one stdout line once the weights are loaded. run.ts starts it for the
 * local-model runs and stops it by its pid. Exit 3 with `{"reason"}` when there is no model or runtime here.
 *
 * Env: PEERS_LOCAL_PROMPT_CHARS (default 1200), PEERS_LOCAL_MAX_TOKENS (default 48).
 */
import { createLocalModel } from '@baton/local-model';
import { type GenerateModel, startLocalServer } from './src/local-server.ts';

let model: ReturnType<typeof createLocalModel>;
try {
  // Prompt (<= 1,200 characters by default, well under 1,000 SmolLM2 tokens) and reply fit well inside 2,048.
  model = createLocalModel({ contextSize: 2048, threads: 1 });
  await model.load();
} catch (error) {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  console.log(JSON.stringify({ reason: reason.slice(0, 400) }));
  process.exit(3);
}
const server = await startLocalServer(model as unknown as GenerateModel, {
  promptChars: Number(process.env.PEERS_LOCAL_PROMPT_CHARS ?? 1200),
  maxOutputTokens: Number(process.env.PEERS_LOCAL_MAX_TOKENS ?? 48),
});
console.log(JSON.stringify({ url: server.url, modelId: model.modelId }));
const stop = async () => {
  await server.close();
  await model.dispose();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
