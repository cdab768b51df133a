import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDemoServer, type DemoServer } from '../create-demo-server.js';
import { readDemoConfig } from '../read-demo-config.js';

export interface OfflineDemoServer {
  server: DemoServer;
  /** Closes the server and removes its data directory and workspace. */
  dispose(): Promise<void>;
}

/**
 * A demo server for tests: scripted model, no local summarizer, no step delay, a fresh data
 * directory, logs dropped. Tests that attack the HTTP surface need nothing else.
 */
export async function openOfflineDemoServer(prefix: string): Promise<OfflineDemoServer> {
  const dataDirectory = await mkdtemp(path.join(tmpdir(), prefix));
  const config = { ...readDemoConfig({}, '/unused'), dataDirectory, stepDelayMs: 0 };
  const server = await createDemoServer({
    config,
    environment: { DEMO_LOCAL_MODEL: 'off' },
    log: () => undefined,
  });
  return {
    server,
    async dispose() {
      const { workspace } = await server.state();
      await server.close();
      await rm(workspace, { recursive: true, force: true });
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}
