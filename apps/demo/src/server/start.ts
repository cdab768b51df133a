import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { summarizerBanner } from '../shared/summarizer-banner.js';
import { createDemoServer } from './create-demo-server.js';
import { readDemoConfig } from './read-demo-config.js';
import { isLoopbackHost } from './request-guard.js';

// dist/server/start.js -> the app folder
const appDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const config = readDemoConfig(process.env, appDirectory);
const demo = await createDemoServer({
  config,
  environment: process.env,
  clientDirectory: path.join(appDirectory, 'dist', 'client'),
});

const description = demo.model.description;
const server = serve(
  { fetch: demo.app.fetch, port: config.port, hostname: config.host },
  (info) => {
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    console.log(`Baton demo: http://${host}:${info.port}/`);
    console.log(
      description.offline
        ? `No LLM configured: the scripted offline agent plays a coding session (set OPENAI_API_KEY, ANTHROPIC_API_KEY or OPENAI_COMPATIBLE_BASE_URL for a real model). ${summarizerBanner(description)}`
        : `Model: ${description.provider} ${description.modelId}; summariser: ${description.summarizer}.`,
    );
    console.log(`Context window: ${demo.contextWindow} tokens; data: ${config.dataDirectory}`);
    const hostName = config.host.replace(/^\[|\]$/g, '').toLowerCase();
    if (!isLoopbackHost(config.host.includes(':') ? `[${hostName}]` : hostName)) {
      console.log(
        `HOST is ${config.host}: requests are answered only when their Host header is a loopback name${config.allowedHosts.length > 0 ? ` or one of ${config.allowedHosts.join(', ')}` : ' (list other names in DEMO_ALLOWED_HOSTS)'}.`,
      );
    }
  },
);

server.on('error', (error: NodeJS.ErrnoException) => {
  console.error(
    error.code === 'EADDRINUSE'
      ? `Port ${config.port} is in use: set PORT to another port (PORT=0 picks a free one).`
      : `Server error: ${error.message}`,
  );
  void demo.close().finally(() => process.exit(1));
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.close();
  try {
    await demo.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
