// A TCP proxy in front of Postgres that a test controls, to lose or refuse database connections on purpose: cut
// open connections (as a server restart does), stop listening (connections refused), or close the next new
// connection of an application before it is through. Connections are told apart by the application_name of their
// startup message (the engine names its pool, listener and event connections).
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface PgProxy {
  port: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  url(databaseUrl: string): string;
  /** Open connections (of applications `which` accepts). */
  open(which?: (app: string) => boolean): number;
  /** Cuts the open connections of applications `which` accepts (all by default): both sides closed at once. */
  cut(which?: (app: string) => boolean): number;
  /** The next `n` new connections of applications `which` accepts are closed once their startup message is in. */
  refuseNext(n: number, which: (app: string) => boolean): void;
  /** How many connections refuseNext closed. */
  refused: number;
  /** Stops listening and cuts everything: connecting is refused (ECONNREFUSED) until `listen()`. */
  stop(): Promise<void>;
  listen(): Promise<void>;
  close(): Promise<void>;
}

interface Link {
  app: string;
  client: Socket;
  server: Socket | null;
}

/** The application_name of a StartupMessage (Int32 length, Int32 protocol, then name\0value\0 pairs), '' if none. */
function applicationName(startup: Buffer): string {
  const parts = startup.subarray(8).toString('utf8').split('\0');
  const i = parts.findIndex((p, k) => k % 2 === 0 && p === 'application_name');
  return i >= 0 ? parts[i + 1] ?? '' : '';
}

export async function startPgProxy(target: { host: string; port: number }): Promise<PgProxy> {
  const links = new Set<Link>();
  const refusals: Array<{ left: number; which: (app: string) => boolean }> = [];
  let server: Server | null = null;
  let port = 0;

  const onClient = (client: Socket): void => {
    let head = Buffer.alloc(0);
    client.on('error', () => undefined);
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      if (head.length < 4 || head.length < head.readInt32BE(0)) return;
      client.off('data', onData);
      client.pause();
      const app = applicationName(head.subarray(0, head.readInt32BE(0)));
      const refusal = refusals.find((r) => r.left > 0 && r.which(app));
      if (refusal) {
        refusal.left--;
        proxy.refused++;
        client.destroy();
        return;
      }
      const link: Link = { app, client, server: null };
      links.add(link);
      const upstream = connect(target.port, target.host, () => {
        upstream.write(head);
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      link.server = upstream;
      const end = (): void => {
        links.delete(link);
        client.destroy();
        upstream.destroy();
      };
      upstream.on('error', end);
      upstream.on('close', end);
      client.on('close', end);
    };
    client.on('data', onData);
  };

  const listen = async (): Promise<void> => {
    const s = createServer(onClient);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as { port: number }).port;
    server = s;
  };

  const cut = (which: (app: string) => boolean = () => true): number => {
    let n = 0;
    for (const l of [...links]) {
      if (!which(l.app)) continue;
      links.delete(l);
      l.client.destroy();
      l.server?.destroy();
      n++;
    }
    return n;
  };

  const proxy: PgProxy = {
    get port() {
      return port;
    },
    url(databaseUrl) {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    open: (which = () => true) => [...links].filter((l) => which(l.app)).length,
    cut,
    refuseNext(n, which) {
      refusals.push({ left: n, which });
    },
    refused: 0,
    async stop() {
      const s = server;
      server = null;
      const closed = s ? new Promise<void>((resolve) => s.close(() => resolve())) : Promise.resolve();
      cut();
      await closed;
    },
    listen,
    async close() {
      await proxy.stop();
    },
  };
  await listen();
  return proxy;
}
