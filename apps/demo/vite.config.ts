import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** In `vite` dev mode, serve the demo's API from the same process as the page. */
function demoApi(): Plugin {
  return {
    name: 'baton-demo-api',
    apply: 'serve',
    async configureServer(server) {
      const { createDemoServer } = (await server.ssrLoadModule(
        '/src/server/create-demo-server.ts',
      )) as typeof import('./src/server/create-demo-server.js');
      const { readDemoConfig } = (await server.ssrLoadModule(
        '/src/server/read-demo-config.ts',
      )) as typeof import('./src/server/read-demo-config.js');
      const demo = await createDemoServer({
        config: readDemoConfig(process.env, path.resolve(import.meta.dirname)),
        environment: process.env,
      });
      const listener = getRequestListener(demo.app.fetch);
      server.middlewares.use(
        (request: IncomingMessage, response: ServerResponse, next: () => void) => {
          if (request.url?.startsWith('/api/')) void listener(request, response);
          else next();
        },
      );
      server.httpServer?.once('close', () => void demo.close());
    },
  };
}

export default defineConfig({
  plugins: [react(), demoApi()],
  build: { outDir: 'dist/client', emptyOutDir: true },
});
