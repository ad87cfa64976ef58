// A statement whose columns are all text (a query plan's) runs without asking Postgres to describe its rows: its
// rows must be what Postgres sent, on the first run (Parse) and later ones (Bind only), over the simple protocol
// too, and its failures must leave the connection serving the next statement.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { sendStatement, type ArrayResult } from '../../src/execute/statement.js';
import type { Statement } from '../../src/execute/plan.js';

let db: TestDatabase;
let pool: pg.Pool;

test.before(async () => {
  db = await createTestDatabase('stmt');
  // One connection: every statement of a test meets the same session (parsed once, then only bound).
  pool = new pg.Pool({ connectionString: db.url, max: 1 });
});

test.after.always(async () => {
  await pool?.end();
  await db?.drop();
});

const run = (st: Statement, values: unknown[]): Promise<ArrayResult> =>
  new Promise((resolve, reject) => sendStatement(pool, st, values, (e, r) => (e ? reject(e) : resolve(r))));

const statement = (name: string | undefined, text: string, textRow: boolean): Statement => ({ name, text, slots: [], textRow });

const THREE_COLUMNS = `SELECT $1::text AS "0", NULL::text AS "1", 'ä€😀 "q"'::text AS "2"`;

test('a text-row statement gives the rows Postgres sent, without a row description, on every run', async (t) => {
  const st = statement('e_text_three', THREE_COLUMNS, true);
  for (const value of ['first', 'second', 'third']) {
    const r = await run(st, [value]);
    t.deepEqual(r.rows, [[value, null, 'ä€😀 "q"']]);
    t.is(r.fields.length, 0, 'no RowDescription was asked for');
  }
  const described = await run(statement('e_text_three_described', THREE_COLUMNS, false), ['first']);
  t.deepEqual(described.rows, [['first', null, 'ä€😀 "q"']]);
  t.deepEqual(described.fields.map((f) => f.name), ['0', '1', '2']);
});

test('a text-row statement gives every row, in order', async (t) => {
  const st = statement('e_text_series', `SELECT (i * $1::int)::text AS "0" FROM generate_series(1, 5) AS i ORDER BY i`, true);
  for (const factor of [1, 10]) {
    const r = await run(st, [factor]);
    t.deepEqual(r.rows, [1, 2, 3, 4, 5].map((i) => [String(i * factor)]));
  }
});

test('a one-off text-row statement with no values (the simple protocol, which describes rows) gives the same rows', async (t) => {
  const r = await run(statement(undefined, `SELECT 'x'::text AS "0", NULL::text AS "1"`, true), []);
  t.deepEqual(r.rows, [['x', null]]);
});

test('a text-row statement failing in Postgres fails with its error, and the connection serves the next', async (t) => {
  const st = statement('e_text_regex', `SELECT ('abc' ~ $1)::text AS "0"`, true);
  const e = await t.throwsAsync(run(st, ['(']));
  t.is((e as Error & { code?: string }).code, '2201B');
  t.deepEqual((await run(st, ['b'])).rows, [['true']]);
});

test('a value pg cannot write fails the statement once, and the connection serves the next', async (t) => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  const st = statement('e_text_value', `SELECT $1::text AS "0"`, true);
  // A checked-out client: the pool would drop a connection whose statement failed, this one must go on.
  const client = await pool.connect();
  try {
    const on = (values: unknown[]): Promise<ArrayResult> =>
      new Promise((resolve, reject) => sendStatement(client, st, values, (e, r) => (e ? reject(e) : resolve(r))));
    let calls = 0;
    const failure = await new Promise<Error | undefined>((resolve) => sendStatement(client, st, [circular], (err) => {
      calls++;
      resolve(err);
    }));
    t.regex(failure?.message ?? '', /circular/);
    t.deepEqual((await on(['after'])).rows, [['after']]);
    t.is(calls, 1);
  } finally {
    client.release();
  }
});
