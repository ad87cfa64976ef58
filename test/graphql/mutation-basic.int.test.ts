// Mutations as admin on a real engine: insert (many / one / nested / upsert), update (operators, by pk), delete,
// affected_rows and returning, the original's validation messages, Postgres error mapping, and one transaction per
// request (a failing field rolls back the fields before it).
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';

let e: TestEngine;

const SQL = `
CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, is_registered boolean NOT NULL DEFAULT false, info jsonb);
CREATE TABLE article (id serial PRIMARY KEY, title text, content text, author_id int REFERENCES author(id), is_published boolean);
CREATE TABLE numerics (id serial PRIMARY KEY, i int, b bigint, n numeric, s smallint);
CREATE TABLE strict (id serial PRIMARY KEY, code varchar(3) NOT NULL, qty int CHECK (qty > 0));
CREATE FUNCTION fetch_articles(search text, author_row author) RETURNS SETOF article AS $$
  SELECT * FROM article WHERE title ILIKE ('%' || search || '%') AND author_id = author_row.id $$ LANGUAGE sql STABLE;
INSERT INTO numerics (i, b, n, s) VALUES (10, 100, 1.5, 3);
`;

test.before(async () => {
  e = await startTestEngine({ stringifyNumericTypes: true });
  const r = await e.query({
    type: 'bulk',
    args: [
      { type: 'run_sql', args: { sql: SQL } },
      { type: 'track_table', args: 'author' },
      { type: 'track_table', args: 'article' },
      { type: 'track_table', args: 'numerics' },
      { type: 'track_table', args: 'strict' },
      { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
      { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
      { type: 'add_computed_field', args: { table: 'author', name: 'fetch_articles', definition: { function: 'fetch_articles', table_argument: 'author_row' } } },
    ],
  });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
});

test.after.always(async () => {
  await e?.close();
});

const gql = async (query: string, variables?: Record<string, unknown>) => (await e.graphql({ query, variables })).body;
const count = async (table: string): Promise<number> => {
  const r = await e.query({ type: 'run_sql', args: { sql: `SELECT count(*) FROM ${table}` } });
  return Number(r.body.result[1][0]);
};

test.serial('insert many: affected_rows, returning, defaults for missing columns; empty objects', async (t) => {
  const r = await gql('mutation { insert_author(objects: [{name: "A1"}, {name: "A2", is_registered: true}]) { affected_rows returning { id name is_registered } } }');
  t.deepEqual(r, { data: { insert_author: { affected_rows: 2, returning: [{ id: 1, name: 'A1', is_registered: false }, { id: 2, name: 'A2', is_registered: true }] } } });
  t.deepEqual(await gql('mutation { insert_author(objects: []) { affected_rows returning { id } } }'), { data: { insert_author: { affected_rows: 0, returning: [] } } });
});

test.serial('insert_one and upserts (update columns, do nothing → null)', async (t) => {
  t.deepEqual(await gql('mutation { insert_author_one(object: {name: "A3"}) { id name } }'), { data: { insert_author_one: { id: 3, name: 'A3' } } });
  t.deepEqual(
    await gql('mutation { insert_author_one(object: {name: "A1", is_registered: true}, on_conflict: {constraint: author_name_key, update_columns: [is_registered]}) { id is_registered } }'),
    { data: { insert_author_one: { id: 1, is_registered: true } } },
  );
  t.deepEqual(
    await gql('mutation { insert_author_one(object: {name: "A1"}, on_conflict: {constraint: author_name_key, update_columns: []}) { id } }'),
    { data: { insert_author_one: null } },
  );
  // on_conflict where: the conflicting row is updated only when it matches.
  t.deepEqual(
    await gql('mutation { insert_author(objects: [{name: "A2", is_registered: false}], on_conflict: {constraint: author_name_key, update_columns: [is_registered], where: {id: {_eq: 99}}}) { affected_rows } }'),
    { data: { insert_author: { affected_rows: 0 } } },
  );
});

test.serial('nested array insert: children take the parent key; returning reads relationships and computed fields', async (t) => {
  const r = await gql(`mutation { insert_author(objects: [{name: "N1", articles: {data: [{title: "Art 1"}, {title: "Art 2"}]}}, {name: "N2", articles: {data: []}}]) {
    affected_rows returning { name articles { title author { name } } fetch_articles(args: {search: "Art"}) { title } } } }`);
  t.deepEqual(r, {
    data: {
      insert_author: {
        affected_rows: 4,
        returning: [
          { name: 'N1', articles: [{ title: 'Art 1', author: { name: 'N1' } }, { title: 'Art 2', author: { name: 'N1' } }], fetch_articles: [{ title: 'Art 1' }, { title: 'Art 2' }] },
          { name: 'N2', articles: [], fetch_articles: [] },
        ],
      },
    },
  });
});

test.serial('nested inserts run in input order (serial ids ascend with the objects)', async (t) => {
  const objs = Array.from({ length: 6 }, (_, i) => `{name: "ord${i}", articles: {data: [{title: "ord${i}a"}, {title: "ord${i}b"}]}}`).join(', ');
  const r = await gql(`mutation { insert_author(objects: [${objs}]) { affected_rows returning { id name articles(order_by: {id: asc}) { id title } } } }`);
  const rows = r.data.insert_author.returning as Array<{ id: number; name: string; articles: Array<{ id: number; title: string }> }>;
  t.is(r.data.insert_author.affected_rows, 18);
  t.deepEqual(rows.map((x) => x.name), ['ord0', 'ord1', 'ord2', 'ord3', 'ord4', 'ord5']);
  const ids = rows.map((x) => x.id);
  t.deepEqual(ids, [...ids].sort((a, b) => a - b));
  const articleIds = rows.flatMap((x) => x.articles.map((a) => a.id));
  t.deepEqual(articleIds, [...articleIds].sort((a, b) => a - b));
  await gql('mutation { delete_article(where: {title: {_like: "ord%"}}) { affected_rows } delete_author(where: {name: {_like: "ord%"}}) { affected_rows } }');
});

test.serial('nested object insert: the remote row first, its key in the parent', async (t) => {
  const r = await gql('mutation { insert_article(objects: [{title: "O1", author: {data: {name: "Obj author"}}}]) { affected_rows returning { title author { name articles { title } } } } }');
  t.deepEqual(r, { data: { insert_article: { affected_rows: 2, returning: [{ title: 'O1', author: { name: 'Obj author', articles: [{ title: 'O1' }] } }] } } });
  const one = await gql('mutation { insert_article_one(object: {title: "O2", author: {data: {name: "A1"}, on_conflict: {constraint: author_name_key, update_columns: [name]}}}) { title author { id } } }');
  t.deepEqual(one, { data: { insert_article_one: { title: 'O2', author: { id: 1 } } } });
});

test.serial('nested insert errors: columns determined by the parent or an object relationship; upsert affecting zero rows', async (t) => {
  const a = await gql('mutation { insert_author(objects: [{name: "E1", articles: {data: [{title: "x", author_id: 1}]}}]) { affected_rows } }');
  t.deepEqual(a.errors, [{
    extensions: { path: '$.selectionSet.insert_author.args.objects[0].articles.data[0]', code: 'validation-failed' },
    message: 'cannot insert "author_id" columns as their values are already being determined by parent insert',
  }]);
  const b = await gql('mutation { insert_article(objects: [{title: "x", author_id: 1, author: {data: {name: "E2"}}}]) { affected_rows } }');
  t.deepEqual(b.errors, [{
    extensions: { path: '$.selectionSet.insert_article.args.objects[0].author', code: 'validation-failed' },
    message: 'cannot insert object relation ship "author" as "author_id" column values are already determined',
  }]);
  const before = await count('article');
  const c = await gql('mutation { insert_author(objects: [{name: "A1", articles: {data: [{title: "y"}]}}], on_conflict: {constraint: author_name_key, update_columns: []}) { affected_rows } }');
  t.is(c.errors[0].extensions.code, 'not-supported');
  t.is(c.errors[0].message, 'cannot proceed to insert array relations since insert to table "author" affects zero rows');
  const d = await gql('mutation { insert_article(objects: [{title: "z", author: {data: {name: "A1"}, on_conflict: {constraint: author_name_key, update_columns: []}}}]) { affected_rows } }');
  t.is(d.errors[0].message, 'cannot proceed to insert object relation "author" since insert to table "author" affects zero rows');
  t.is(await count('article'), before);
});

test.serial('variables: whole objects and leaf values; jsonb values', async (t) => {
  const r = await gql('mutation ($objs: [author_insert_input!]!, $info: jsonb) { a: insert_author(objects: $objs) { affected_rows } b: insert_author_one(object: {name: "V2", info: $info}) { info } }',
    { objs: [{ name: 'V1', info: { k: [1, 2] } }], info: { x: 'y' } });
  t.deepEqual(r, { data: { a: { affected_rows: 1 }, b: { info: { x: 'y' } } } });
});

test.serial('update: _set, _inc, jsonb operators, by pk; empty _set runs nothing', async (t) => {
  const r = await gql('mutation { update_author(where: {name: {_eq: "V1"}}, _set: {name: "V1b"}, _append: {info: {z: 1}}) { affected_rows returning { name info } } }');
  t.deepEqual(r, { data: { update_author: { affected_rows: 1, returning: [{ name: 'V1b', info: { k: [1, 2], z: 1 } }] } } });
  const j = await gql('mutation { update_author(where: {name: {_eq: "V1b"}}, _delete_key: {info: "z"}) { returning { info } } }');
  t.deepEqual(j, { data: { update_author: { returning: [{ info: { k: [1, 2] } }] } } });
  const p = await gql('mutation { update_author(where: {name: {_eq: "V1b"}}, _delete_at_path: {info: ["k", "0"]}) { returning { info } } }');
  t.deepEqual(p, { data: { update_author: { returning: [{ info: { k: [2] } }] } } });
  const pre = await gql('mutation { update_author(where: {name: {_eq: "V1b"}}, _prepend: {info: {a: 0}}) { returning { info } } }');
  t.deepEqual(pre, { data: { update_author: { returning: [{ info: { a: 0, k: [2] } }] } } });
  const n = await gql('mutation { update_numerics(where: {id: {_eq: 1}}, _inc: {i: -1, b: 5, n: "0.25", s: 1}) { affected_rows returning { i b n s } } }');
  t.deepEqual(n, { data: { update_numerics: { affected_rows: 1, returning: [{ i: 9, b: '105', n: '1.75', s: 4 }] } } });
  t.deepEqual(await gql('mutation { update_author_by_pk(pk_columns: {id: 1}, _set: {name: "Jane"}) { id name } }'), { data: { update_author_by_pk: { id: 1, name: 'Jane' } } });
  t.deepEqual(await gql('mutation { update_author_by_pk(pk_columns: {id: 999}, _set: {name: "X"}) { id } }'), { data: { update_author_by_pk: null } });
  t.deepEqual(await gql('mutation ($s: author_set_input!) { update_author(where: {id: {_eq: 1}}, _set: $s) { affected_rows returning { id } } }', { s: {} }),
    { data: { update_author: { affected_rows: 0, returning: [] } } });
});

test.serial('update validation: no operator; a column in several operators', async (t) => {
  const a = await gql('mutation { update_author(where: {}) { affected_rows } }');
  t.deepEqual(a.errors, [{ extensions: { path: '$', code: 'validation-failed' }, message: 'at least any one of _set, _inc, _append, _prepend, _delete_key, _delete_elem, _delete_at_path is expected' }]);
  const b = await gql('mutation { update_numerics(where: {}, _set: {i: 1, b: 2}, _inc: {i: 2, b: 3}) { affected_rows } }');
  t.deepEqual(b.errors, [{ extensions: { path: '$', code: 'validation-failed' }, message: 'column found in multiple operators; "i" in _set, _inc. "b" in _set, _inc' }]);
});

test.serial('delete: where, by pk (row or null), returning with relationships; foreign key violation', async (t) => {
  const ins = await gql('mutation { insert_article_one(object: {title: "Del", author_id: 1}) { id } }');
  const id = ins.data.insert_article_one.id;
  t.deepEqual(await gql(`mutation { delete_article_by_pk(id: ${id}) { title author { name } } }`), { data: { delete_article_by_pk: { title: 'Del', author: { name: 'Jane' } } } });
  t.deepEqual(await gql(`mutation { delete_article_by_pk(id: ${id}) { title } }`), { data: { delete_article_by_pk: null } });
  const d = await gql('mutation { delete_article(where: {title: {_eq: "O1"}}) { affected_rows returning { title author { name } } } }');
  t.deepEqual(d, { data: { delete_article: { affected_rows: 1, returning: [{ title: 'O1', author: { name: 'Obj author' } }] } } });
  const fk = await gql('mutation { delete_author(where: {name: {_eq: "N1"}}) { affected_rows } }');
  t.is(fk.errors[0].extensions.code, 'constraint-violation');
  t.regex(fk.errors[0].message, /^Foreign key violation\. update or delete on table "author" violates foreign key constraint "article_author_id_fkey" on table "article"/);
});

test.serial('Postgres errors map to the original codes and messages', async (t) => {
  const u = await gql('mutation { insert_author(objects: [{name: "Jane"}]) { affected_rows } }');
  t.is(u.errors[0].extensions.code, 'constraint-violation');
  t.is(u.errors[0].extensions.path, '$.selectionSet.insert_author.args.objects');
  t.regex(u.errors[0].message, /^Uniqueness violation\. duplicate key value violates unique constraint "author_name_key"/);
  const nn = await gql('mutation { insert_strict_one(object: {qty: 1}) { id } }');
  t.is(nn.errors[0].extensions.code, 'constraint-violation');
  t.regex(nn.errors[0].message, /^Not-NULL violation\. null value in column "code"/);
  const ck = await gql('mutation { insert_strict(objects: [{code: "a", qty: 0}]) { affected_rows } }');
  t.is(ck.errors[0].extensions.code, 'permission-error');
  t.regex(ck.errors[0].message, /^Check constraint violation\. new row for relation "strict" violates check constraint/);
  const de = await gql('mutation { insert_strict(objects: [{code: "abcd", qty: 1}]) { affected_rows } }');
  t.is(de.errors[0].extensions.code, 'data-exception');
  const ov = await gql('mutation { insert_strict(objects: [{code: "a", qty: 2147483648}]) { affected_rows } }');
  t.deepEqual(ov.errors[0].extensions, { path: '$.selectionSet.insert_strict.args.objects[0].qty', code: 'parse-failed' });
  t.is(await count('strict'), 0);
});

test.serial('one literal feeding columns of different types (float4 and money) in one statement', async (t) => {
  await e.query({ type: 'bulk', args: [{ type: 'run_sql', args: { sql: 'CREATE TABLE prices (id serial PRIMARY KEY, r real, m money)' } }, { type: 'track_table', args: 'prices' }] });
  const r = await gql('mutation { insert_prices_one(object: {r: 1.5, m: 1.5}) { id } update_prices(where: {}, _inc: {r: -2E-1, m: -2E-1}) { returning { r m } } }');
  t.deepEqual(r, { data: { insert_prices_one: { id: 1 }, update_prices: { returning: [{ r: 1.3, m: '$1.30' }] } } });
});

test.serial('several mutation fields run in order in one transaction; a failure rolls all of them back', async (t) => {
  const ok = await gql('mutation { a: insert_strict_one(object: {code: "x", qty: 1}) { id } b: update_strict(where: {code: {_eq: "x"}}, _inc: {qty: 1}) { returning { qty } } }');
  t.is(typeof ok.data.a.id, 'number');
  t.deepEqual(ok.data.b, { returning: [{ qty: 2 }] });
  const before = await count('strict');
  const bad = await gql('mutation { a: insert_strict_one(object: {code: "y", qty: 1}) { id } b: insert_strict_one(object: {code: "z", qty: -1}) { id } }');
  t.is(bad.errors[0].extensions.code, 'permission-error');
  t.false('data' in bad);
  t.is(await count('strict'), before);
  t.is(await count("strict WHERE code = 'y'"), 0);
});

test.serial('__typename in mutation_root and mutation responses', async (t) => {
  const r = await gql('mutation { __typename insert_author(objects: []) { __typename affected_rows } }');
  t.deepEqual(r, { data: { __typename: 'mutation_root', insert_author: { __typename: 'author_mutation_response', affected_rows: 0 } } });
});
