import test from 'ava';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { introspectCatalog } from '../../src/catalog/introspect.js';

let db: TestDatabase;
let client: pg.Client;

test.before(async () => {
  db = await createTestDatabase('catalog');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(`
    CREATE SCHEMA other;
    CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, tags text[], info jsonb);
    COMMENT ON TABLE author IS 'writers';
    COMMENT ON COLUMN author.name IS 'full name';
    CREATE TABLE other.article (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      author_id int REFERENCES author(id),
      slug varchar(20) UNIQUE,
      price numeric(10,2) DEFAULT 0
    );
    CREATE VIEW author_names AS SELECT id, name FROM author;
    CREATE FUNCTION search_authors(search text) RETURNS SETOF author AS $$
      SELECT * FROM author WHERE name ILIKE '%' || search || '%'
    $$ LANGUAGE sql STABLE;
    CREATE FUNCTION author_upper(a author, suffix text DEFAULT '') RETURNS text AS $$ SELECT upper(a.name) || suffix $$ LANGUAGE sql IMMUTABLE;
  `);
});

test.after.always(async () => {
  await client?.end();
  await db?.drop();
});

test.serial('tables, columns and their types', async (t) => {
  const cat = await introspectCatalog(client);
  const author = cat.tables['public.author'];
  t.is(author.kind, 'table');
  t.is(author.comment, 'writers');
  t.deepEqual(author.columns.map((c) => [c.name, c.type, c.isArray, c.nullable, c.hasDefault]), [
    ['id', 'int4', false, false, true],
    ['name', 'text', false, false, false],
    ['tags', 'text', true, true, false],
    ['info', 'jsonb', false, true, false],
  ]);
  t.is(author.columns[1].comment, 'full name');
  t.deepEqual(author.primaryKey, { name: 'author_pkey', columns: ['id'] });
  t.true(author.insertable && author.updatable && author.deletable);
});

test.serial('constraints: primary key, unique, foreign key across schemas', async (t) => {
  const cat = await introspectCatalog(client);
  const article = cat.tables['other.article'];
  t.truthy(article);
  t.true(article.columns[0].isIdentity);
  t.is(article.columns[3].formattedType, 'numeric(10,2)');
  t.deepEqual(article.uniqueConstraints, [{ name: 'article_slug_key', columns: ['slug'] }]);
  t.deepEqual(article.foreignKeys, [
    { name: 'article_author_id_fkey', columns: ['author_id'], refTable: { schema: 'public', name: 'author' }, refColumns: ['id'] },
  ]);
});

test.serial('views are relations with updatability', async (t) => {
  const cat = await introspectCatalog(client);
  const v = cat.tables['public.author_names'];
  t.is(v.kind, 'view');
  t.is(v.primaryKey, null);
  t.true(v.updatable);
});

test.serial('functions with arguments, volatility and returned table', async (t) => {
  const cat = await introspectCatalog(client);
  const [search] = cat.functions['public.search_authors'];
  t.is(search.volatility, 'stable');
  t.true(search.returnsSet);
  t.deepEqual(search.returnsTable, { schema: 'public', name: 'author' });
  t.deepEqual(search.args, [{ name: 'search', type: 'text', typeSchema: 'pg_catalog', mode: 'in', hasDefault: false }]);
  const [upper] = cat.functions['public.author_upper'];
  t.false(upper.returnsSet);
  t.is(upper.returnsTable, null);
  t.deepEqual(upper.args.map((a) => [a.name, a.type, a.hasDefault]), [['a', 'author', false], ['suffix', 'text', true]]);
});

test.serial('sees uncommitted DDL of its own transaction and excludes the engine catalog', async (t) => {
  await client.query('BEGIN');
  try {
    await client.query('CREATE SCHEMA engine_catalog; CREATE TABLE engine_catalog.x (id int); CREATE TABLE fresh (id int)');
    const cat = await introspectCatalog(client);
    t.deepEqual(cat.tables['public.fresh'].columns.map((c) => c.name), ['id']);
    t.false('engine_catalog.x' in cat.tables);
  } finally {
    await client.query('ROLLBACK');
  }
});
