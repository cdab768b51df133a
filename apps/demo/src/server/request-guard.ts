import type { MiddlewareHandler } from 'hono';

export interface RequestGuardOptions {
  /**
   * Host names besides the loopback ones (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`) that
   * requests may address, e.g. the LAN name of a machine the demo is deliberately served to.
   * Default: none.
   */
  allowedHosts?: readonly string[];
  /** Where one line per refused request goes. */
  log: (line: string) => void;
}

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower-cased. */
function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(host.trim());
  return match ? match[1]!.toLowerCase().replace(/\.$/, '') : undefined;
}

/** True for names that always resolve to this machine, whatever a DNS server answers. */
export function isLoopbackHost(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '[::1]') return true;
  const octets = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (!octets) return false;
  return octets[1] === '127' && octets.slice(2).every((octet) => Number(octet) <= 255);
}

/**
 * Refuses (403) any request another web page could make the browser send:
 * - a `Host` that is not a loopback name (or an allowed host): a DNS-rebinding page that made its own
 *   name resolve to 127.0.0.1 is same-origin to the browser but still carries its own name here;
 * - an `Origin` other than this page's own (`http://` + the Host), `null` included: a cross-site
 *   form or `text/plain` fetch needs no preflight, so CORS alone does not stop it;
 * - `Sec-Fetch-Site: cross-site` or `same-site`, which browsers send even on requests without an Origin.
 * Clients that send neither header (curl, scripts on this machine) are let through.
 */
export function requestGuard(options: RequestGuardOptions): MiddlewareHandler {
  const allowed = new Set((options.allowedHosts ?? []).map((host) => host.trim().toLowerCase()));
  return async (context, next) => {
    const refuse = (reason: string) => {
      options.log(`refused ${context.req.method} ${context.req.path}: ${reason}`);
      return context.json({ error: `refused: ${reason}` }, 403);
    };
    const host = context.req.header('host') ?? new URL(context.req.url).host;
    const name = hostName(host);
    if (name === undefined || (!isLoopbackHost(name) && !allowed.has(name))) {
      return refuse(`Host "${host.slice(0, 100)}" is not a loopback name`);
    }
    const origin = context.req.header('origin');
    if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`) {
      return refuse(`Origin "${origin.slice(0, 100)}" is not this demo's origin`);
    }
    const site = context.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      return refuse(`Sec-Fetch-Site "${site.slice(0, 40)}"`);
    }
    await next();
  };
}
