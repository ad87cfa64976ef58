// The catalog fingerprint (src/catalog/fingerprint.ts) changes with every kind of DDL the introspection can see, done
// in the same transaction or committed by another connection, and stays the same without DDL.
import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { catalogFingerprint } from '../../src/catalog/fingerprint.js';

let db: TestDatabase;
let a: pg.Client;
let b: pg.Client;
test.before(async () => {
  db = await createTestDatabase('fingerprint');
  a = new pg.Client({ connectionString: db.url });
  b = new pg.Client({ connectionString: db.url });
  await a.connect();
  await b.connect();
  await b.query('CREATE TABLE t (id serial PRIMARY KEY, name text); CREATE VIEW v AS SELECT id FROM t;');
});
test.after.always(async () => {
  await a?.end();
  await b?.end();
  await db?.drop();
});

const DDL = [
  'CREATE TABLE u (id int)',
  'ALTER TABLE t ADD COLUMN extra text',
  'ALTER TABLE t RENAME COLUMN name TO title',
  "COMMENT ON TABLE t IS 'rows'",
  "COMMENT ON COLUMN t.id IS 'key'",
  'ALTER TABLE t ADD CONSTRAINT t_title_key UNIQUE (title)',
  'CREATE OR REPLACE VIEW v AS SELECT id, title FROM t',
  'CREATE FUNCTION f(x t) RETURNS text AS $$ SELECT x.title $$ LANGUAGE sql STABLE',
  "CREATE TYPE mood AS ENUM ('happy')",
  'CREATE SCHEMA other',
  'CREATE FUNCTION v_ins() RETURNS trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql',
  'CREATE TRIGGER v_ins INSTEAD OF INSERT ON v FOR EACH ROW EXECUTE FUNCTION v_ins()',
  'DROP TABLE u',
];

test.serial('the same without DDL', async (t) => {
  t.is(await catalogFingerprint(a), await catalogFingerprint(a));
  await b.query('INSERT INTO t (title) VALUES ($1)', ['x']).catch(() => b.query('INSERT INTO t (name) VALUES ($1)', ['x']));
  t.is(await catalogFingerprint(a), await catalogFingerprint(b));
});

for (const sql of DDL) {
  test.serial(`changed by another connection's committed DDL, and inside the transaction that does it: ${sql}`, async (t) => {
    const before = await catalogFingerprint(a);
    await b.query('BEGIN');
    await b.query(sql);
    const inside = await catalogFingerprint(b);
    t.is(await catalogFingerprint(a), before, 'not yet committed');
    await b.query('COMMIT');
    t.not(inside, before);
    t.not(await catalogFingerprint(a), before);
  });
}
