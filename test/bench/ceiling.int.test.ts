// The bench dataset generator and the ceiling server: the ceiling's JSON for every query equals an expectation built
// in JS from plain SQL rows, and the generator is deterministic and skips regeneration when the data is current.
// In floor mode the ceiling answers the same and does every engine request's work: request id, metrics, http-log.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, baseDatabaseUrl, type TestDatabase } from '../helpers/db.js';
import { datasetSize, ensureDataset, generateDataset } from '../../bench/dataset.js';
import { startCeiling, type Ceiling } from '../../bench/ceiling.js';
import { QUERIES, type BenchQuery } from '../../bench/queries.js';
import { compareJson } from '../../bench/json-compare.js';
import { postGraphql } from '../../bench/check.js';
import { setQuiet } from '../../bench/log.js';

const SCALE = 0.001;
const SEED = 7;

let db: TestDatabase;
let client: pg.Client;
let ceiling: Ceiling;

/** A JSON number written exactly as Postgres printed it (numeric, bigint). */
class Num {
  constructor(readonly text: string) {}
}
const num = (v: string | number | null) => (v === null ? null : new Num(String(v)));
const toJson = (v: unknown): string => {
  if (v instanceof Num) return v.text;
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
};
const rows = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Record<string, any>[];
const byKey = <T extends Record<string, any>>(xs: T[], key: string) => {
  const m = new Map<unknown, T[]>();
  for (const x of xs) m.set(x[key], [...(m.get(x[key]) ?? []), x]);
  return m;
};
const query = (name: string): BenchQuery => QUERIES.find((q) => q.name === name)!;

test.before(async () => {
  setQuiet(true);
  db = await createTestDatabase('bench');
  await generateDataset(db.url, { scale: SCALE, seed: SEED });
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  ceiling = await startCeiling({ databaseUrl: db.url, poolSize: 2 });
});

test.after.always(async () => {
  await ceiling?.close();
  await client?.end().catch(() => undefined);
  await db?.drop();
});

/** Expected `{"data": ...}` bodies, from plain SQL rows assembled in JS (a different route than the ceiling's SQL). */
const expected: Record<string, () => Promise<unknown>> = {
  async Q1() {
    return { data: { artist: await rows('SELECT id, name FROM artist ORDER BY id LIMIT 20') } };
  },
  async Q2() {
    const [t] = await rows('SELECT id, name, composer, milliseconds, bytes, unit_price FROM track WHERE id = $1', [query('Q2').variables.id]);
    return { data: { track_by_pk: t ? { ...t, unit_price: num(t.unit_price) } : null } };
  },
  async Q3() {
    const artists = await rows('SELECT id, name FROM artist ORDER BY id LIMIT 10');
    const albums = byKey(await rows('SELECT id, title, artist_id FROM album WHERE artist_id = ANY($1) ORDER BY id', [artists.map((a) => a.id)]), 'artist_id');
    const allAlbumIds = [...albums.values()].flat().map((a) => a.id);
    const tracks = byKey(await rows('SELECT id, name, milliseconds, album_id FROM track WHERE album_id = ANY($1) ORDER BY id', [allAlbumIds]), 'album_id');
    return {
      data: {
        artist: artists.map((a) => ({
          id: a.id,
          name: a.name,
          albums: (albums.get(a.id) ?? []).map((al) => ({
            id: al.id,
            title: al.title,
            tracks: (tracks.get(al.id) ?? []).map((t) => ({ id: t.id, name: t.name, milliseconds: t.milliseconds })),
          })),
        })),
      },
    };
  },
  async Q4() {
    const { genreId, minMs } = query('Q4').variables;
    const ts = await rows(
      'SELECT id, name, album_id, milliseconds, unit_price FROM track WHERE genre_id = $1 AND milliseconds > $2 ORDER BY milliseconds DESC, id LIMIT 50',
      [genreId, minMs],
    );
    return { data: { track: ts.map((t) => ({ ...t, unit_price: num(t.unit_price) })) } };
  },
  async Q5() {
    const [r] = await rows(
      `SELECT count(*)::text AS count, avg(milliseconds)::text AS avg_ms, avg(unit_price)::text AS avg_price, max(milliseconds) AS max_ms
         FROM track WHERE album_id IN (SELECT id FROM album WHERE artist_id = $1)`,
      [query('Q5').variables.artistId],
    );
    return {
      data: {
        track_aggregate: {
          aggregate: { count: num(r.count), avg: { milliseconds: num(r.avg_ms), unit_price: num(r.avg_price) }, max: { milliseconds: r.max_ms } },
        },
      },
    };
  },
  async Q6() {
    const customers = await rows('SELECT id, first_name, last_name, email FROM customer ORDER BY id LIMIT 5');
    const invoices = byKey(
      await rows(
        `SELECT id, to_char(invoice_date, 'YYYY-MM-DD"T"HH24:MI:SS') AS invoice_date, total, customer_id
           FROM invoice WHERE customer_id = ANY($1) ORDER BY id`,
        [customers.map((c) => c.id)],
      ),
      'customer_id',
    );
    const invoiceIds = [...invoices.values()].flat().map((i) => i.id);
    const lines = byKey(await rows('SELECT id, quantity, unit_price, track_id, invoice_id FROM invoice_line WHERE invoice_id = ANY($1) ORDER BY id', [invoiceIds]), 'invoice_id');
    const trackIds = [...lines.values()].flat().map((l) => l.track_id);
    const tracks = new Map((await rows('SELECT id, name, album_id FROM track WHERE id = ANY($1)', [trackIds])).map((t) => [t.id, t]));
    const albums = new Map((await rows('SELECT id, title, artist_id FROM album')).map((a) => [a.id, a]));
    const artists = new Map((await rows('SELECT id, name FROM artist')).map((a) => [a.id, a]));
    return {
      data: {
        customer: customers.map((c) => ({
          ...c,
          invoices: (invoices.get(c.id) ?? []).map((i) => ({
            id: i.id,
            invoice_date: i.invoice_date,
            total: num(i.total),
            lines: (lines.get(i.id) ?? []).map((l) => {
              const t = tracks.get(l.track_id)!;
              const al = albums.get(t.album_id)!;
              const ar = artists.get(al.artist_id)!;
              return {
                id: l.id,
                quantity: l.quantity,
                unit_price: num(l.unit_price),
                track: { id: t.id, name: t.name, album: { id: al.id, title: al.title, artist: { id: ar.id, name: ar.name } } },
              };
            }),
          })),
        })),
      },
    };
  },
};

/** Guards against a vacuous comparison: each query's answer must have some substance at this scale. */
const substantial: Record<string, (data: any) => boolean> = {
  Q1: (d) => d.artist.length === 10,
  Q2: (d) => d.track_by_pk !== null,
  Q3: (d) => d.artist.some((a: any) => a.albums.some((al: any) => al.tracks.length > 0)),
  Q4: (d) => d.track.length > 0,
  Q5: (d) => Number(d.track_aggregate.aggregate.count.text) > 0,
  Q6: (d) => d.customer.some((c: any) => c.invoices.some((i: any) => i.lines.length > 0)),
};

for (const q of QUERIES) {
  test.serial(`ceiling answers ${q.name} (${q.description}) with the expected JSON`, async (t) => {
    const want = (await expected[q.name]()) as { data: unknown };
    t.true(substantial[q.name](want.data), 'the expectation is not trivially empty');
    const res = await postGraphql(ceiling.url, q);
    t.is(res.status, 200, res.text);
    const c = compareJson(res.text, toJson(want));
    t.deepEqual(c.differences, []);
    t.deepEqual(c.numberTextDiffers, []);
  });
}

test.serial('ceiling rejects an unknown operation', async (t) => {
  const res = await fetch(`${ceiling.url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: '{x}', operationName: 'Nope' }) });
  t.is(res.status, 400);
});

test.serial('the floor answers as the ceiling does, with a request id, a request count and an http-log line per request', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'engine-floor-'));
  const logFile = join(dir, 'floor.log');
  const q = query('Q2');
  const plain = await postGraphql(ceiling.url, q);
  const floor = await startCeiling({ databaseUrl: db.url, poolSize: 2, floorLog: logFile });
  let requestId = '';
  try {
    const res = await fetch(`${floor.url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: q.graphql, variables: q.variables, operationName: q.name }) });
    const body = await res.text();
    t.is(res.status, 200);
    t.is(body, plain.text);
    requestId = res.headers.get('x-request-id') ?? '';
    t.regex(requestId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const unknown = await fetch(`${floor.url}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: '{x}', operationName: 'Nope' }) });
    t.is(unknown.status, 400);
    t.not(unknown.headers.get('x-request-id'), requestId);
    t.is(await floor.floor!.count('/v1/graphql', 'query', 200), 1);
    t.is(await floor.floor!.count('/v1/graphql', 'query', 400), 1);
    t.is(ceiling.floor, null);
  } finally {
    await floor.close();
  }
  const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; detail: any });
  rmSync(dir, { recursive: true, force: true });
  t.is(lines.length, 2);
  const [first, second] = lines;
  t.is(first.type, 'http-log');
  t.is(first.detail.operation.request_id, requestId);
  t.is(first.detail.operation.response_size, Buffer.byteLength(plain.text));
  t.true(first.detail.operation.query_execution_time > 0);
  t.deepEqual(first.detail.http_info, { status: 200, method: 'POST', ip: '127.0.0.1', url: '/v1/graphql', http_version: 'HTTP/1.1', content_encoding: null });
  t.is(second.detail.http_info.status, 400);
  t.not(first.detail.operation.request_id, second.detail.operation.request_id);
});

test.serial('the generator has the row counts, keys and foreign-key indexes it promises', async (t) => {
  const size = datasetSize(SCALE);
  const counts = (await rows(`SELECT (SELECT count(*) FROM artist)::int AS artists, (SELECT count(*) FROM album)::int AS albums,
      (SELECT count(*) FROM track)::int AS tracks, (SELECT count(*) FROM genre)::int AS genres,
      (SELECT count(*) FROM media_type)::int AS "mediaTypes", (SELECT count(*) FROM customer)::int AS customers,
      (SELECT count(*) FROM invoice)::int AS invoices, (SELECT count(*) FROM invoice_line)::int AS "invoiceLines"`))[0];
  t.deepEqual(counts, { ...size });
  t.deepEqual(datasetSize(1).tracks, 500_000);
  t.deepEqual(datasetSize(1).invoiceLines, 1_000_000);
  const fks = await rows(`SELECT conrelid::regclass::text AS tbl, a.attname AS col
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace ORDER BY 1, 2`);
  t.is(fks.length, 7);
  for (const fk of fks) {
    const idx = await rows(
      `SELECT 1 FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
        WHERE i.indrelid = $1::regclass AND a.attname = $2`,
      [fk.tbl, fk.col],
    );
    t.true(idx.length > 0, `index leading with ${fk.tbl}.${fk.col}`);
  }
});

test.serial('the generator is deterministic and ensureDataset skips current data', async (t) => {
  const digest = async () =>
    (await rows(`SELECT md5(string_agg(x, '|' ORDER BY x)) AS d FROM (
        SELECT 'artist' || a::text AS x FROM artist a UNION ALL SELECT 'album' || a::text FROM album a
        UNION ALL SELECT 'track' || t::text FROM track t UNION ALL SELECT 'customer' || c::text FROM customer c
        UNION ALL SELECT 'invoice' || i::text FROM invoice i UNION ALL SELECT 'line' || l::text FROM invoice_line l) s`))[0].d;
  const before = await digest();
  const again = await ensureDataset(baseDatabaseUrl(), db.name, { scale: SCALE, seed: SEED });
  t.false(again.generated);
  // A different seed regenerates with different values; the original seed reproduces the original data.
  await client.end();
  t.true((await ensureDataset(baseDatabaseUrl(), db.name, { scale: SCALE, seed: SEED + 1 })).generated);
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.not(await digest(), before);
  await client.end();
  await generateDataset(db.url, { scale: SCALE, seed: SEED });
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  t.is(await digest(), before);
});
