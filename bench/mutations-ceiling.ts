// The mutation ceiling (run in its own process by bench/mutations.ts): node:http + pg answering the two bench
// mutations with one hand-written statement each (named prepared statement; Postgres builds the whole response).
// Env: BENCH_CEILING_DATABASE_URL, BENCH_CEILING_PORT. Prints one JSON line when ready.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

/** Hand-written SQL per operationName; `params` name the GraphQL variables passed as $1.. */
export const CEILING_SQL: Record<string, { sql: string; params: string[] }> = {
  // The parents' ids are taken from the sequence up front so the children can reference them in the same statement.
  insert_nested: {
    params: ['objects'],
    sql: `WITH input AS (
        SELECT nextval('parent_id_seq') AS id, e.v->>'name' AS name, (e.v->>'score')::int AS score, e.v->'children' AS children
        FROM json_array_elements($1::json) WITH ORDINALITY AS e(v, n) ORDER BY e.n),
      p AS (INSERT INTO parent (id, name, score) SELECT id, name, score FROM input RETURNING id, name),
      c AS (INSERT INTO child (parent_id, label) SELECT input.id, ch->>'label' FROM input, json_array_elements(input.children->'data') AS ch RETURNING 1)
      SELECT json_build_object('data', json_build_object('insert_parent', json_build_object(
        'affected_rows', (SELECT count(*) FROM p) + (SELECT count(*) FROM c),
        'returning', (SELECT coalesce(json_agg(json_build_object('id', p.id, 'name', p.name)), '[]') FROM p))))::text`,
  },
  update_by_pk: {
    params: ['id', 'score'],
    sql: `WITH u AS (UPDATE parent SET score = $2::int WHERE id = $1::int RETURNING id, score)
      SELECT json_build_object('data', json_build_object('update_parent_by_pk', (SELECT json_build_object('id', u.id, 'score', u.score) FROM u)))::text`,
  },
};

const databaseUrl = process.env.BENCH_CEILING_DATABASE_URL;
if (!databaseUrl) throw new Error('BENCH_CEILING_DATABASE_URL is required');
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const reply = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    let q: { sql: string; params: string[] } | undefined;
    let body: { operationName?: string; variables?: Record<string, unknown> };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      q = CEILING_SQL[body.operationName ?? ''];
    } catch {
      return reply(400, '{"errors":[{"message":"invalid json"}]}');
    }
    if (!q) return reply(400, '{"errors":[{"message":"unknown operation"}]}');
    const values = q.params.map((p) => {
      const v = body.variables?.[p];
      return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
    });
    pool.query({ name: body.operationName, text: q.sql, values, rowMode: 'array' }).then(
      (r) => reply(200, r.rows[0][0] as string),
      (e: Error) => reply(500, JSON.stringify({ errors: [{ message: e.message }] })),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.BENCH_CEILING_PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ msg: 'ceiling.ready', url: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
