// Permissions end to end: an engine with an admin secret and HS256 JWTs over a real database; roles and session
// variables come from signed tokens (or from headers on admin-secret requests). Every rule kind: select filters
// (session variables, relationships, _exists), columns, limits, aggregations, nested relationships under the target's
// own permission, by_pk, insert columns/presets/checks, update filter/check/presets, delete filter, backend_only,
// v1 DML, and session values that are missing or do not convert to the column's type.
import test from 'ava';
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { HS_SECRET, hsToken, NS } from '../auth/helpers.js';

const SECRET = 'permissions-admin-secret';
let e: TestEngine;

const SQL = `
CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL, is_registered boolean NOT NULL DEFAULT true, secret text);
CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id),
  is_published boolean NOT NULL DEFAULT false, editor_id int);
CREATE TABLE audit (id serial PRIMARY KEY, note text, created_by text, kind text);
INSERT INTO author VALUES (1, 'A1', true, 's1'), (2, 'A2', true, 's2'), (3, 'A3', false, 's3');
INSERT INTO article (title, author_id, is_published) VALUES
  ('a1-pub', 1, true), ('a1-draft', 1, false), ('a2-pub', 2, true), ('a2-draft', 2, false), ('a3-pub', 3, true),
  ('a1-pub2', 1, true), ('a1-pub3', 1, true);
CREATE FUNCTION author_label(a author) RETURNS text STABLE LANGUAGE sql AS $$ SELECT a.name || '#' || a.id $$;
CREATE FUNCTION search_articles(q text) RETURNS SETOF article STABLE LANGUAGE sql AS $$ SELECT * FROM article WHERE title ILIKE '%' || q || '%' $$;
`;

const perm = (type: string, table: string, role: string, permission: unknown) => ({ type: `create_${type}_permission`, args: { table, role, permission } });
const mine = { author_id: 'X-Engine-User-Id' };

test.before(async () => {
  e = await startTestEngine({ adminSecret: SECRET, jwtSecret: { type: 'HS256', key: HS_SECRET } });
  const r = await e.query(
    {
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: SQL } },
        { type: 'track_table', args: 'author' },
        { type: 'track_table', args: 'article' },
        { type: 'track_table', args: 'audit' },
        { type: 'track_function', args: 'search_articles' },
        { type: 'add_computed_field', args: { table: 'author', name: 'label', definition: { function: 'author_label' } } },
        { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
        { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
        // user: registered authors only, no author aggregates; published articles or one's own, at most 3 rows, aggregates allowed
        perm('select', 'author', 'user', { columns: ['id', 'name'], computed_fields: ['label'], filter: { is_registered: true } }),
        perm('select', 'article', 'user', {
          columns: ['id', 'title', 'author_id', 'is_published'], filter: { _or: [{ is_published: true }, mine] }, limit: 3, allow_aggregations: true,
        }),
        perm('insert', 'article', 'user', { columns: ['title', 'is_published'], set: { author_id: 'X-Engine-User-Id' }, check: { author: { is_registered: true } } }),
        perm('update', 'article', 'user', { columns: ['title'], filter: mine, check: { title: { _nilike: '%forbidden%' } }, set: { editor_id: 'X-Engine-User-Id' } }),
        perm('delete', 'article', 'user', { filter: { ...mine, is_published: false } }),
        perm('insert', 'audit', 'user', { columns: ['note'], set: { kind: 'web', created_by: 'X-Engine-User-Id' }, check: {} }),
        perm('select', 'audit', 'user', { columns: ['note', 'created_by', 'kind'], filter: { created_by: 'X-Engine-User-Id' } }),
        // reader: articles through a relationship filter on a text session variable; no author table at all
        perm('select', 'article', 'reader', { columns: ['id', 'title'], filter: { author: { name: { _eq: 'X-Engine-Author-Name' } } } }),
        // auditor: authors that have an unpublished article (_exists with a session variable)
        perm('select', 'author', 'auditor', {
          columns: ['id'], filter: { _exists: { _table: 'article', _where: { _and: [{ is_published: false }, { editor_id: { _is_null: true } }, { title: { _ilike: 'X-Engine-Pattern' } }] } } },
        }),
        // service: backend-only inserts
        perm('insert', 'audit', 'service', { columns: ['note'], set: { kind: 'backend', created_by: 'X-Engine-User-Id' }, check: {}, backend_only: true }),
        perm('select', 'audit', 'service', { columns: ['note', 'kind'], filter: {} }),
      ],
    },
    { 'x-engine-admin-secret': SECRET },
  );
  if (r.status !== 200) throw new Error(r.text);
});

test.after.always(async () => {
  await e?.close();
});

const now = (): number => Math.floor(Date.now() / 1000);
/** A token for `roles` (the first is the default) with extra x-engine-* claims. */
function token(roles: string[], vars: Record<string, unknown> = {}): string {
  return hsToken({ sub: 'x', iat: now() - 10, exp: now() + 600, [NS]: { 'x-engine-allowed-roles': roles, 'x-engine-default-role': roles[0], ...vars } });
}
const jwt = (roles: string[], vars: Record<string, unknown> = {}, role?: string) => ({
  authorization: `Bearer ${token(roles, vars)}`,
  ...(role ? { 'x-engine-role': role } : {}),
});
const user = (id: string) => jwt(['user'], { 'x-engine-user-id': id });
const gql = async (headers: Record<string, string>, query: string, variables?: Record<string, unknown>) => {
  const r = await e.graphql({ query, variables }, headers);
  if (r.status !== 200) throw new Error(r.text);
  return r.body;
};
const notFound = (field: string, type: string, path: string) => ({
  errors: [{ extensions: { path, code: 'validation-failed' }, message: `field "${field}" not found in type: '${type}'` }],
});

test.serial('select filter with a session variable from the token, and the permission limit', async (t) => {
  t.deepEqual(await gql(user('1'), '{ article(order_by: {id: asc}) { id title } }'), {
    data: { article: [{ id: 1, title: 'a1-pub' }, { id: 2, title: 'a1-draft' }, { id: 3, title: 'a2-pub' }] },
  });
  // user limit below the permission's: the smaller wins; above it: the permission's
  t.deepEqual(await gql(user('2'), '{ article(order_by: {id: asc}, limit: 2) { id } }'), { data: { article: [{ id: 1 }, { id: 3 }] } });
  t.deepEqual(await gql(user('2'), '{ article(order_by: {id: asc}, limit: 50, offset: 1) { id } }'), { data: { article: [{ id: 3 }, { id: 4 }, { id: 5 }] } });
  // a filter of the client narrows the permission's, never widens it
  t.deepEqual(await gql(user('1'), '{ article(where: {is_published: {_eq: false}}) { id } }'), { data: { article: [{ id: 2 }] } });
  t.deepEqual(await gql(user('2'), '{ article(where: {_or: [{is_published: {_eq: false}}, {id: {_eq: 2}}]}, order_by: {id: asc}) { id } }'), {
    data: { article: [{ id: 4 }] },
  });
});

test.serial('columns outside the permission are not in the schema', async (t) => {
  t.deepEqual(await gql(user('1'), '{ author { secret } }'), notFound('secret', 'author', '$.selectionSet.author.selectionSet.secret'));
  t.deepEqual(await gql(user('1'), '{ article { editor_id } }'), notFound('editor_id', 'article', '$.selectionSet.article.selectionSet.editor_id'));
  t.deepEqual(await gql(user('1'), '{ audit { id } }'), notFound('id', 'audit', '$.selectionSet.audit.selectionSet.id'));
  // filtering or ordering on a hidden column is refused too
  const byHidden = await gql(user('1'), '{ article(where: {editor_id: {_is_null: true}}) { id } }');
  t.is(byHidden.errors[0].extensions.code, 'validation-failed');
});

test.serial('computed fields only where the permission lists them', async (t) => {
  t.deepEqual(await gql(user('1'), '{ author(order_by: {id: asc}) { id label } }'), { data: { author: [{ id: 1, label: 'A1#1' }, { id: 2, label: 'A2#2' }] } });
  t.deepEqual(await gql(jwt(['auditor'], { 'x-engine-pattern': '%' }), '{ author { label } }'), notFound('label', 'author', '$.selectionSet.author.selectionSet.label'));
});

test.serial('nested relationships follow the target table\'s own permission', async (t) => {
  // article 5's author is unregistered: the user may read the article but not its author
  t.deepEqual(await gql(user('1'), '{ article(where: {id: {_in: [1, 5]}}, order_by: {id: asc}) { id author { id name } } }'), {
    data: { article: [{ id: 1, author: { id: 1, name: 'A1' } }, { id: 5, author: null }] },
  });
  // array relationship: filtered and limited by the article permission; the unregistered author is not listed
  t.deepEqual(await gql(user('2'), '{ author(order_by: {id: asc}) { id articles(order_by: {id: asc}) { id } } }'), {
    data: { author: [{ id: 1, articles: [{ id: 1 }, { id: 6 }, { id: 7 }] }, { id: 2, articles: [{ id: 3 }, { id: 4 }] }] },
  });
  t.deepEqual(await gql(user('2'), '{ author(where: {id: {_eq: 1}}) { articles(order_by: {id: asc}, limit: 2, offset: 1) { id } } }'), {
    data: { author: [{ articles: [{ id: 6 }, { id: 7 }] }] },
  });
  // a where through a relationship uses the target's permission as well: article 5's author is invisible
  t.deepEqual(await gql(user('1'), '{ article(where: {author: {name: {_eq: "A3"}}}) { id } }'), { data: { article: [] } });
  // reader has no permission on author: the relationship is not in its schema
  const reader = jwt(['reader'], { 'x-engine-author-name': 'A2' });
  t.deepEqual(await gql(reader, '{ article(order_by: {id: asc}) { id title } }'), { data: { article: [{ id: 3, title: 'a2-pub' }, { id: 4, title: 'a2-draft' }] } });
  t.deepEqual(await gql(reader, '{ article { author { name } } }'), notFound('author', 'article', '$.selectionSet.article.selectionSet.author'));
  t.deepEqual(await gql(reader, '{ author { id } }'), notFound('author', 'query_root', '$.selectionSet.author'));
});

test.serial('_exists with a session variable, by_pk under the filter', async (t) => {
  t.deepEqual(await gql(jwt(['auditor'], { 'x-engine-pattern': '%draft%' }), '{ author(order_by: {id: asc}) { id } }'), { data: { author: [{ id: 1 }, { id: 2 }, { id: 3 }] } });
  t.deepEqual(await gql(jwt(['auditor'], { 'x-engine-pattern': 'nothing' }), '{ author { id } }'), { data: { author: [] } });
  t.deepEqual(await gql(user('1'), '{ article_by_pk(id: 4) { id } mine: article_by_pk(id: 2) { id } }'), { data: { article_by_pk: null, mine: { id: 2 } } });
  t.deepEqual(await gql(user('2'), '{ article_by_pk(id: 4) { id title } }'), { data: { article_by_pk: { id: 4, title: 'a2-draft' } } });
});

test.serial('aggregations: only where allowed, over the rows the permission lets through', async (t) => {
  t.deepEqual(await gql(user('1'), '{ author_aggregate { aggregate { count } } }'), notFound('author_aggregate', 'query_root', '$.selectionSet.author_aggregate'));
  t.deepEqual(await gql(jwt(['reader'], { 'x-engine-author-name': 'A2' }), '{ article_aggregate { aggregate { count } } }'),
    notFound('article_aggregate', 'query_root', '$.selectionSet.article_aggregate'));
  // user 2 sees articles 1, 3, 4, 5, 6, 7 (published or own); the permission's limit of 3 caps nodes, not the
  // aggregate values (as the original; issue 8)
  t.deepEqual(await gql(user('2'), '{ article_aggregate(where: {author_id: {_eq: 2}}) { aggregate { count max { id } } nodes { id } } }'), {
    data: { article_aggregate: { aggregate: { count: 2, max: { id: 4 } }, nodes: [{ id: 3 }, { id: 4 }] } },
  });
  t.deepEqual(await gql(user('2'), '{ article_aggregate { aggregate { count } } }'), { data: { article_aggregate: { aggregate: { count: 6 } } } });
  t.deepEqual(await gql(user('2'), '{ article_aggregate(order_by: {id: asc}) { aggregate { count } nodes { id } } }'),
    { data: { article_aggregate: { aggregate: { count: 6 }, nodes: [{ id: 1 }, { id: 3 }, { id: 4 }] } } });
  // nested aggregate through the author relationship, filtered by the article permission
  t.deepEqual(await gql(user('1'), '{ author(where: {id: {_eq: 2}}) { articles_aggregate { aggregate { count } } } }'), {
    data: { author: [{ articles_aggregate: { aggregate: { count: 1 } } }] },
  });
});

test.serial('a tracked function returning table rows gets that table\'s select permission', async (t) => {
  t.deepEqual(await gql(user('1'), '{ search_articles(args: {q: "pub"}, order_by: {id: asc}) { id title } }'), {
    data: { search_articles: [{ id: 1, title: 'a1-pub' }, { id: 3, title: 'a2-pub' }, { id: 5, title: 'a3-pub' }] },
  });
  t.deepEqual(await gql(user('2'), '{ search_articles(args: {q: "draft"}, order_by: {id: asc}) { id author { name } } }'), {
    data: { search_articles: [{ id: 4, author: { name: 'A2' } }] },
  });
  t.deepEqual(await gql(user('2'), '{ search_articles_aggregate(args: {q: "draft"}) { aggregate { count } } }'), {
    data: { search_articles_aggregate: { aggregate: { count: 1 } } },
  });
  const reader = jwt(['reader'], { 'x-engine-author-name': 'A1' });
  t.deepEqual(await gql(reader, '{ search_articles(args: {q: "a1"}, order_by: {id: asc}) { id } }'), { data: { search_articles: [{ id: 1 }, { id: 2 }, { id: 6 }, { id: 7 }] } });
  t.deepEqual(await gql(reader, '{ search_articles_aggregate(args: {q: "a1"}) { aggregate { count } } }'),
    notFound('search_articles_aggregate', 'query_root', '$.selectionSet.search_articles_aggregate'));
  // a role without select permission on the returned table does not see the function
  t.deepEqual(await gql(jwt(['auditor'], { 'x-engine-pattern': '%' }), '{ search_articles(args: {q: "a"}) { id } }'),
    notFound('search_articles', 'query_root', '$.selectionSet.search_articles'));
});

test.serial('session variables: missing, not convertible to the column type, from headers only with the admin secret', async (t) => {
  t.deepEqual(await gql(jwt(['user']), '{ article { id } }'), {
    errors: [{ extensions: { path: '$', code: 'not-found' }, message: '"x-engine-user-id" header is expected but not found' }],
  });
  const bad = await gql(user('abc'), '{ article { id } }');
  t.deepEqual(bad, { errors: [{ extensions: { path: '$', code: 'data-exception' }, message: 'invalid input syntax for type integer: "abc"' }] });
  const huge = await gql(user('99999999999'), '{ article { id } }');
  t.is(huge.errors[0].extensions.code, 'data-exception');
  // a header cannot override a claim on a JWT request
  t.deepEqual(await gql({ ...user('1'), 'x-engine-user-id': '2' }, '{ article(where: {is_published: {_eq: false}}) { id } }'), { data: { article: [{ id: 2 }] } });
  // with the admin secret, role and variables come from the headers
  const trusted = { 'x-engine-admin-secret': SECRET, 'x-engine-role': 'user', 'x-engine-user-id': '2' };
  t.deepEqual(await gql(trusted, '{ article(where: {is_published: {_eq: false}}) { id } }'), { data: { article: [{ id: 4 }] } });
  // a role picked with X-Engine-Role among the token's allowed roles
  const two = jwt(['user', 'reader'], { 'x-engine-user-id': '1', 'x-engine-author-name': 'A1' }, 'reader');
  t.deepEqual(await gql(two, '{ article(order_by: {id: asc}) { id } }'), { data: { article: [{ id: 1 }, { id: 2 }, { id: 6 }, { id: 7 }] } });
});

test.serial('insert: columns, presets from the token, a check through a relationship', async (t) => {
  const r = await gql(user('2'), 'mutation { insert_article_one(object: {title: "new by 2"}) { title author_id is_published } }');
  t.deepEqual(r, { data: { insert_article_one: { title: 'new by 2', author_id: 2, is_published: false } } });
  t.deepEqual(await gql(user('2'), 'mutation { insert_article(objects: [{title: "x", author_id: 1}]) { affected_rows } }'), {
    errors: [{ extensions: { path: '$.selectionSet.insert_article.args.objects[0].author_id', code: 'validation-failed' }, message: 'field "author_id" not found in type: \'article_insert_input\'' }],
  });
  // author 3 is not registered: the check (article.author.is_registered) fails and nothing is written
  t.deepEqual(await gql(user('3'), 'mutation { insert_article(objects: [{title: "by 3"}]) { affected_rows } }'), {
    errors: [{ extensions: { path: '$.selectionSet.insert_article.args.objects', code: 'permission-error' }, message: 'Check constraint violation. insert check constraint failed' }],
  });
  const count = await e.query({ type: 'count', args: { table: 'article', where: { title: 'by 3' } } }, { 'x-engine-admin-secret': SECRET });
  t.deepEqual(count.body, { count: 0 });
  // static and session presets together
  t.deepEqual(await gql(user('1'), 'mutation { insert_audit(objects: [{note: "n1"}]) { returning { note kind created_by } } }'), {
    data: { insert_audit: { returning: [{ note: 'n1', kind: 'web', created_by: '1' }] } },
  });
  // the insert needs the session variable its preset names
  t.deepEqual(await gql(jwt(['user']), 'mutation { insert_audit(objects: [{note: "n2"}]) { affected_rows } }'), {
    errors: [{ extensions: { path: '$', code: 'not-found' }, message: '"x-engine-user-id" header is expected but not found' }],
  });
});

test.serial('update: filter before, check after, preset from the token; delete: filter', async (t) => {
  t.deepEqual(await gql(user('1'), 'mutation { update_article(where: {}, _set: {title: "renamed"}) { affected_rows returning { id } } }'), {
    data: { update_article: { affected_rows: 4, returning: [{ id: 1 }, { id: 2 }, { id: 6 }, { id: 7 }] } },
  });
  const rows = await e.query({ type: 'select', args: { table: 'article', columns: ['id', 'title', 'editor_id'], where: { author_id: 1 }, order_by: ['id'] } }, { 'x-engine-admin-secret': SECRET });
  t.deepEqual(rows.body, [1, 2, 6, 7].map((id) => ({ id, title: 'renamed', editor_id: 1 })));
  t.deepEqual(await gql(user('1'), 'mutation { update_article_by_pk(pk_columns: {id: 3}, _set: {title: "theirs"}) { id } }'), { data: { update_article_by_pk: null } });
  t.deepEqual(await gql(user('1'), 'mutation { update_article(where: {id: {_eq: 1}}, _set: {title: "a forbidden title"}) { affected_rows } }'), {
    errors: [{ extensions: { path: '$', code: 'permission-error' }, message: 'Check constraint violation. update check constraint failed' }],
  });
  t.deepEqual(await gql(user('1'), 'mutation { update_article(where: {}, _set: {is_published: true}) { affected_rows } }'), {
    errors: [{ extensions: { path: '$.selectionSet.update_article.args._set.is_published', code: 'validation-failed' }, message: 'field "is_published" not found in type: \'article_set_input\'' }],
  });
  // delete only one's own unpublished articles
  t.deepEqual(await gql(user('2'), 'mutation { delete_article(where: {}) { affected_rows returning { id } } }'), {
    data: { delete_article: { affected_rows: 2, returning: [{ id: 4 }, { id: 8 }] } },
  });
  t.deepEqual(await gql(user('2'), 'mutation { delete_article_by_pk(id: 3) { id } }'), { data: { delete_article_by_pk: null } });
  // reader has no mutations at all
  t.deepEqual(await gql(jwt(['reader'], { 'x-engine-author-name': 'A1' }), 'mutation { delete_article(where: {}) { affected_rows } }'), {
    errors: [{ extensions: { path: '$', code: 'validation-failed' }, message: 'no mutations exist' }],
  });
});

test.serial('backend_only: only with the admin secret and the backend-only flag', async (t) => {
  const q = 'mutation { insert_audit(objects: [{note: "b"}]) { returning { note kind } } }';
  // service's only mutation is backend-only: without it the role has no mutation_root at all (as the original says)
  const missing = { errors: [{ extensions: { path: '$', code: 'validation-failed' }, message: 'no mutations exist' }] };
  const flag = { 'x-engine-use-backend-only-permissions': 'true' };
  // a token (even with the flag) never gets backend-only permissions
  t.deepEqual(await gql({ ...jwt(['service'], { 'x-engine-user-id': '9' }), ...flag }, q), missing);
  const service = { 'x-engine-admin-secret': SECRET, 'x-engine-role': 'service', 'x-engine-user-id': '9' };
  t.deepEqual(await gql(service, q), missing);
  t.deepEqual(await gql({ ...service, 'x-engine-use-backend-only-permissions': 'false' }, q), missing);
  t.deepEqual(await gql({ ...service, ...flag }, q), { data: { insert_audit: { returning: [{ note: 'b', kind: 'backend' }] } } });
  t.deepEqual(await gql({ ...service, 'X-Engine-Use-Backend-Only-Permissions': 'Yes' }, q), { data: { insert_audit: { returning: [{ note: 'b', kind: 'backend' }] } } });
  // the same query again without the flag (a plan made for the flagged request must not be reused)
  t.deepEqual(await gql(service, q), missing);
  t.deepEqual(await gql(jwt(['service'], { 'x-engine-user-id': '9' }), q), missing);
  const qv = 'mutation ($n: String) { insert_audit(objects: [{note: $n}]) { affected_rows } }';
  t.deepEqual(await gql({ ...service, ...flag }, qv, { n: 'v' }), { data: { insert_audit: { affected_rows: 1 } } });
  t.deepEqual(await gql(service, qv, { n: 'v' }), missing);
  t.deepEqual(await gql(jwt(['service'], { 'x-engine-user-id': '9' }), qv, { n: 'v' }), missing);
  // a token's flag is ignored: the role keeps its ordinary inserts
  const u = 'mutation { insert_audit(objects: [{note: "u"}]) { affected_rows } }';
  t.deepEqual(await gql({ ...user('1'), ...flag }, u), { data: { insert_audit: { affected_rows: 1 } } });
  // with the admin secret the flag selects the backend-only inserts only (as the original): user's ordinary insert is gone
  const trustedUser = { 'x-engine-admin-secret': SECRET, 'x-engine-role': 'user', 'x-engine-user-id': '1' };
  t.deepEqual(await gql(trustedUser, u), { data: { insert_audit: { affected_rows: 1 } } });
  t.deepEqual(await gql({ ...trustedUser, ...flag }, u), notFound('insert_audit', 'mutation_root', '$.selectionSet.insert_audit'));
  const uv = 'mutation ($n: String) { insert_audit(objects: [{note: $n}]) { affected_rows } }';
  t.deepEqual(await gql(trustedUser, uv, { n: 'v' }), { data: { insert_audit: { affected_rows: 1 } } });
  t.deepEqual(await gql({ ...trustedUser, ...flag }, uv, { n: 'v' }), notFound('insert_audit', 'mutation_root', '$.selectionSet.insert_audit'));
});

test.serial('v1 DML as a token\'s role: the same filters, columns and limit', async (t) => {
  const r = await e.query({ type: 'select', args: { table: 'article', columns: ['id'], where: { is_published: true }, order_by: ['id'] } }, user('2'));
  t.is(r.status, 200);
  // Published articles 1, 3, 5, 6, 7 pass the filter; the permission's limit keeps the first three.
  t.deepEqual(r.body, [{ id: 1 }, { id: 3 }, { id: 5 }]);
  const hidden = await e.query({ type: 'select', args: { table: 'author', columns: ['secret'] } }, user('2'));
  t.is(hidden.status, 400);
  t.deepEqual(hidden.body, { path: '$.args.columns[0]', error: 'role "user" does not have permission to select column "secret"', code: 'permission-denied' });
  const bad = await e.query({ type: 'select', args: { table: 'article', columns: ['id'] } }, user('abc'));
  t.is(bad.status, 400);
  t.deepEqual(bad.body, { path: '$', error: 'invalid input syntax for type integer: "abc"', code: 'data-exception' });
  const missing = await e.query({ type: 'select', args: { table: 'article', columns: ['id'] } }, jwt(['user']));
  t.is(missing.status, 400);
  t.deepEqual(missing.body, { path: '$.args', error: '"x-engine-user-id" header is expected but not found', code: 'not-found' });
  const noTable = await e.query({ type: 'select', args: { table: 'author', columns: ['id'] } }, jwt(['reader'], { 'x-engine-author-name': 'A1' }));
  t.is(noTable.status, 400);
  t.deepEqual(noTable.body, { path: '$.args', error: 'select on "author" for role "reader" is not allowed. ', code: 'permission-denied' });
});
