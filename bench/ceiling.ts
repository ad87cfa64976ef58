// The ceiling: a minimal node:http + pg server answering each bench query with its one hand-written SQL statement
// (named prepared statement; Postgres builds the JSON and Node returns it as text), the best an engine could do.
// In floor mode (`floorLog`) it also does the work every engine request carries (bench/floor.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { QUERIES, type BenchQuery } from './queries.js';
import type { FloorWork } from './floor.js';

export interface Ceiling {
  server: http.Server;
  url: string;
  /** In floor mode: its per-request work (request counts). */
  floor: FloorWork | null;
  close(): Promise<void>;
}

export interface CeilingOptions {
  databaseUrl: string;
  port?: number; // 0 or absent: any free port
  host?: string;
  poolSize?: number;
  /** Floor mode: the http-log lines go to this file. */
  floorLog?: string;
}

type Reply = (req: http.IncomingMessage, res: http.ServerResponse, started: bigint, status: number, body: string) => void;

const plainReply: Reply = (_req, res, _started, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};

/** The floor's reply: the ceiling's, with a request id, then the request counted and logged. */
const floorReply = (work: FloorWork): Reply => (req, res, started, status, body) => {
  const requestId = work.requestId();
  const size = Buffer.byteLength(body);
  res.writeHead(status, { 'x-request-id': requestId, 'content-type': 'application/json; charset=utf-8', 'content-length': size });
  res.end(body);
  work.done(req, requestId, status, size, started);
};

/** Starts the ceiling; it serves `POST /v1/graphql` with the engine's request body and routes on `operationName`. */
export async function startCeiling(opts: CeilingOptions): Promise<Ceiling> {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
  const byName = new Map<string, BenchQuery>(QUERIES.map((q) => [q.name, q]));

  // The floor's code (and the engine's metrics module it uses) is loaded only in floor mode.
  const floor = opts.floorLog === undefined ? null : (await import('./floor.js')).floorWork(opts.floorLog);
  // Two reply functions rather than a test per request: the ceiling's own path stays as it was.
  const reply = floor === null ? plainReply : floorReply(floor);
  const fail = (req: http.IncomingMessage, res: http.ServerResponse, started: bigint, status: number, message: string) =>
    reply(req, res, started, status, JSON.stringify({ errors: [{ message, extensions: { code: 'ceiling-error', path: '$' } }] }));

  const server = http.createServer((req, res) => {
    const started = floor === null ? 0n : process.hrtime.bigint();
    if (req.method !== 'POST' || req.url !== '/v1/graphql') return fail(req, res, started, 404, 'only POST /v1/graphql is served');
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let q: BenchQuery | undefined;
      let values: unknown[];
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { operationName?: string; variables?: Record<string, unknown> };
        q = body.operationName ? byName.get(body.operationName) : undefined;
        if (!q) return fail(req, res, started, 400, `unknown operationName ${JSON.stringify(body.operationName)}`);
        const vars = body.variables ?? {};
        values = q.params.map((p) => vars[p]);
      } catch {
        return fail(req, res, started, 400, 'invalid json');
      }
      pool.query({ name: q.name, text: q.sql, values, rowMode: 'array' }).then(
        (r) => reply(req, res, started, 200, r.rows[0][0] as string),
        (e: Error) => fail(req, res, started, 500, e.message),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    floor,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
      floor?.close();
    },
  };
}
