import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback proxy in front of a PostgreSQL server that can cut a connection at one chosen
 * statement. `commit` forwards the COMMIT, waits for the server's reply (so the transaction IS
 * committed) and cuts the connection instead of delivering it: the acknowledgement lost on the way,
 * or the server gone right after committing. `insert` cuts before forwarding an INSERT (nothing can
 * be committed): the server gone mid-transaction.
 */
export interface CuttingProxy {
  port: number;
  /** The statement to cut at; undefined forwards everything. */
  cut: 'commit' | 'insert' | undefined;
  /**
   * Statements of the `cut` kind still let through before the next cut (counted over all
   * connections): lets a test strike the n-th COMMIT of a call, not only its first.
   */
  skip: number;
  /** Cuts made so far. */
  cuts: number;
  close(): Promise<void>;
}

/** Starts a proxy to `127.0.0.1:<upstreamPort>` on a free loopback port (forwarding everything). */
export async function startCuttingProxy(upstreamPort: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const proxy: CuttingProxy = {
    port: 0,
    cut: undefined,
    skip: 0,
    cuts: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  /** Whether this statement is the one to cut at (consuming one `skip` otherwise). */
  const strikes = (): boolean => {
    if (proxy.skip > 0) {
      proxy.skip--;
      return false;
    }
    proxy.cuts++;
    return true;
  };
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let swallowReply = false;
    client.on('data', (chunk) => {
      const text = chunk.toString('latin1').toLowerCase();
      if (proxy.cut === 'insert' && text.includes('insert into') && strikes()) {
        client.destroy();
        upstream.destroy();
        return;
      }
      // A simple-protocol query message: 'Q', length, "commit", NUL.
      if (proxy.cut === 'commit' && text.includes('commit\u0000') && strikes()) {
        swallowReply = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!swallowReply) {
        client.write(chunk);
        return;
      }
      // The server answered the COMMIT: it is committed. The client never hears it.
      client.destroy();
      upstream.destroy();
    });
    for (const socket of [client, upstream]) {
      socket.on('error', () => {});
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as { port: number }).port;
  return proxy;
}
