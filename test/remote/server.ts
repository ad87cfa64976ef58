// A real GraphQL server on loopback for remote-schema tests (graphql-js executes the requests), recording what
// it receives. Options shape its answers: a delay, a fixed status, changes to the introspection result, cookies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';

export interface Received {
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: { query: string; variables?: Record<string, unknown> | null; operationName?: string | null };
}

export interface RemoteServer {
  url: string;
  received: Received[];
  /** Shapes the next answers. */
  options: {
    delayMs?: number;
    /** Awaited before answering (after the delay): lets a test hold answers until something has happened. */
    beforeAnswer?: () => Promise<void>;
    status?: number;
    /** A fixed body text instead of the result (a remote answering garbage). */
    body?: string;
    setCookie?: string[];
    /** Changes an introspection result (`data.__schema`) before it is sent. */
    mangleIntrospection?: (schema: Record<string, unknown>) => void;
  };
  close(): Promise<void>;
}

export async function startRemote(sdl: string, rootValue: Record<string, unknown>, port = 0): Promise<RemoteServer> {
  const schema: GraphQLSchema = buildSchema(sdl);
  const received: Received[] = [];
  const options: RemoteServer['options'] = {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'];
        received.push({ headers: req.headers, rawHeaders: req.rawHeaders, body });
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        if (options.beforeAnswer) await options.beforeAnswer();
        const result = await graphql({ schema, source: body.query, rootValue, variableValues: body.variables ?? undefined, operationName: body.operationName ?? undefined });
        const data = result.data as Record<string, unknown> | null | undefined;
        if (options.mangleIntrospection && data && '__schema' in data) options.mangleIntrospection(data.__schema as Record<string, unknown>);
        const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
        if (options.setCookie) headers['set-cookie'] = options.setCookie;
        res.writeHead(options.status ?? 200, headers);
        res.end(options.body ?? JSON.stringify(result));
      })();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return {
    url,
    received,
    options,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
