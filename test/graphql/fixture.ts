// Shared fixture for the GraphQL front tests: an engine on a fresh database with authors, articles, an enum table,
// a function, computed fields and permissions, set up through /v1/query.
import { startTestEngine, type TestEngine } from '../helpers/engine.js';
import { prepareOperation, type GraphQLRequestBody } from '../../src/graphql/prepare.js';
import type { Session } from '../../src/auth/session.js';

export const SETUP_SQL = `
CREATE TABLE colors (value text PRIMARY KEY, comment text);
INSERT INTO colors VALUES ('red', 'the red one'), ('blue', 'the blue one');
CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, info jsonb, rating numeric, big bigint, fav text REFERENCES colors);
COMMENT ON COLUMN author.name IS 'full name';
CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int REFERENCES author(id), is_published boolean, tags text[]);
CREATE SCHEMA other;
CREATE TABLE other.thing (id int PRIMARY KEY, label varchar(10));
CREATE FUNCTION search_articles(search text) RETURNS SETOF article AS $$
  SELECT * FROM article WHERE title ILIKE '%' || search || '%' $$ LANGUAGE sql STABLE;
CREATE FUNCTION author_shout(a author, suffix text DEFAULT '!') RETURNS text AS $$ SELECT upper(a.name) || suffix $$ LANGUAGE sql STABLE;
CREATE FUNCTION author_articles(a author) RETURNS SETOF article AS $$ SELECT * FROM article WHERE author_id = a.id $$ LANGUAGE sql STABLE;
INSERT INTO author (name, fav) VALUES ('A1', 'red'), ('A2', 'blue');
INSERT INTO article (title, author_id, is_published) VALUES ('T1', 1, true), ('T2', 1, false), ('T3', 2, true);
`;

export const SETUP_METADATA = [
  { type: 'run_sql', args: { sql: SETUP_SQL } },
  { type: 'track_table', args: { table: 'colors', is_enum: true } },
  { type: 'track_table', args: { schema: 'public', name: 'author' } },
  { type: 'track_table', args: { schema: 'public', name: 'article' } },
  { type: 'track_table', args: { schema: 'other', name: 'thing' } },
  { type: 'track_function', args: { schema: 'public', name: 'search_articles' } },
  { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
  {
    type: 'create_array_relationship',
    args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } },
  },
  { type: 'add_computed_field', args: { table: 'author', name: 'shout', definition: { function: 'author_shout' } } },
  { type: 'add_computed_field', args: { table: 'author', name: 'all_articles', definition: { function: 'author_articles' } } },
  {
    type: 'create_select_permission',
    args: {
      table: 'author', role: 'user',
      permission: { columns: ['id', 'name'], filter: { id: 'X-Engine-User-Id' }, limit: 5, computed_fields: ['shout'] },
    },
  },
  {
    type: 'create_select_permission',
    args: {
      table: 'article', role: 'user',
      permission: { columns: ['id', 'title'], filter: { $or: [{ is_published: true }, { author: { id: { _eq: 'X-ENGINE-USER-ID' } } }] }, allow_aggregations: true },
    },
  },
  // a role granted only a computed field on author, and no column of article
  { type: 'create_select_permission', args: { table: 'author', role: 'narrow', permission: { columns: [], filter: {}, computed_fields: ['shout'] } } },
  { type: 'create_select_permission', args: { table: 'article', role: 'narrow', permission: { columns: [], filter: {} } } },
];

export async function startFixture(): Promise<TestEngine> {
  const e = await startTestEngine();
  const r = await e.query({ type: 'bulk', args: SETUP_METADATA });
  if (r.status !== 200) {
    await e.close();
    throw new Error(`setup failed: ${r.text}`);
  }
  return e;
}

export const admin: Session = { role: 'admin', variables: { 'x-engine-role': 'admin' } };
export const user: Session = { role: 'user', variables: { 'x-engine-role': 'user', 'x-engine-user-id': '1' } };

export function prep(e: TestEngine, session: Session, req: GraphQLRequestBody | string, stringifyNumeric = false) {
  const body = typeof req === 'string' ? { query: req } : req;
  return prepareOperation(e.engine.runtime.store.get(), session, body, { extensions: e.engine.runtime.features.extensions, stringifyNumeric });
}

/** The EngineError a preparation throws, as {code, path, message}. */
export function prepError(e: TestEngine, session: Session, req: GraphQLRequestBody | string): { code: string; path: string; message: string } | null {
  try {
    prep(e, session, req);
    return null;
  } catch (err) {
    const x = err as { code: string; path: string; message: string };
    return { code: x.code, path: x.path, message: x.message };
  }
}
