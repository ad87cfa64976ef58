// Golden SQL (as graphile's __tests__/queries): every test/golden/<case>.graphql (GraphQL; optional <case>.json:
// role, session variables, variables, "relay", "live") and <case>.dml.json (a v1 DML /v1/query body, with role
// and session) is compiled against the shared fixture, and the SQL it generates must equal the committed
// <case>.sql. The SQL is written laid out for reading (sql-formatter: line breaks and indentation only, here in the
// test; the engine sends it on one line), each statement followed by its parameters.
// `npm run test:golden:update` (GOLDEN_UPDATE=1) rewrites the .sql files instead: review the diff before committing.
import test from 'ava';
import { format } from 'sql-formatter';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { Harness } from '../metadata/harness.js';
import { SETUP_METADATA } from '../graphql/fixture.js';
import { prepareOperation } from '../../src/graphql/prepare.js';
import { compileOperation, compileSequential } from '../../src/sql/operation.js';
import { compileLiveQuery } from '../../src/sql/live.js';
import { runMetadataQuery } from '../../src/metadata/execute.js';
import { features } from '../../src/features.js';
import { ensureCatalogSchema } from '../../events/log.js';
import type { ParamSlot } from '../../src/sql/builder.js';
import type { Session } from '../../src/auth/session.js';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const UPDATE = process.env.GOLDEN_UPDATE === '1';

// Write permissions on top of the GraphQL fixture's select permissions, so mutations have checks and presets.
const EXTRA_METADATA = [
  {
    type: 'create_insert_permission',
    args: { table: 'article', role: 'user', permission: { check: { author_id: { _eq: 'X-Engine-User-Id' } }, set: { author_id: 'X-Engine-User-Id' }, columns: ['title', 'is_published'] } },
  },
  {
    type: 'create_update_permission',
    args: { table: 'article', role: 'user', permission: { columns: ['title'], filter: { author_id: { _eq: 'X-Engine-User-Id' } }, check: { title: { _nilike: '%forbidden%' } } } },
  },
  { type: 'create_delete_permission', args: { table: 'article', role: 'user', permission: { filter: { author_id: { _eq: 'X-Engine-User-Id' }, is_published: { _eq: false } } } } },
];

interface CaseOptions {
  role?: string;
  session?: Record<string, string>;
  variables?: Record<string, unknown>;
  relay?: boolean;
  live?: boolean;
}

let db: TestDatabase;
let h: Harness;
test.before(async () => {
  db = await createTestDatabase('golden');
  h = await Harness.connect(db.url);
  await ensureCatalogSchema(h.client); // mutations' checks call engine_catalog.check_violation
  await h.ok({ type: 'bulk', args: [...SETUP_METADATA, ...EXTRA_METADATA] });
});
test.after.always(async () => {
  await h?.close();
  await db?.drop();
});

const sessionOf = (o: { role?: string; session?: Record<string, string> }): Session => {
  const role = o.role ?? 'admin';
  const variables: Record<string, string> = { 'x-engine-role': role };
  for (const [k, v] of Object.entries(o.session ?? {})) variables[k.toLowerCase()] = v;
  return { role, variables };
};

/** One statement as a reader sees it: laid out (whitespace only: checked that every other character is kept), then `;`. */
function readable(sql: string): string {
  const laidOut = format(sql, { language: 'postgresql', keywordCase: 'preserve', tabWidth: 2, expressionWidth: 80 });
  const bare = (s: string) => s.replace(/\s+/g, '');
  if (bare(laidOut) !== bare(sql)) throw new Error(`the layout changed more than whitespace:\n${sql}\n${laidOut}`);
  return `${laidOut};\n`;
}
const params = (slots: readonly ParamSlot[]): string => slots.map((s, i) => `-- $${i + 1} = ${JSON.stringify(s)}\n`).join('');

/** The SQL a GraphQL case generates: the one query statement, the mutation's statements, or the live-query plan. */
function graphqlSql(query: string, o: CaseOptions): string {
  const prepared = prepareOperation(h.state, sessionOf(o), { query, variables: o.variables ?? null }, { extensions: features.extensions, relay: o.relay === true });
  const op = prepared.ir;
  if (o.live) {
    const plan = compileLiveQuery(op);
    return `${readable(plan.text)}${params(plan.slots)}`;
  }
  if (op.operation === 'mutation') {
    return compileSequential(op).statements.map((st, i) => `-- statement ${i + 1}\n${readable(st.text)}${params(st.slots)}`).join('\n');
  }
  const { statement } = compileOperation(op);
  return statement === null ? '-- no statement\n' : `${readable(statement.text)}${params(statement.slots)}`;
}

/** The SQL a v1 DML body sends, recorded from the connection (run in a transaction that is rolled back). */
async function dmlSql(body: unknown, o: CaseOptions): Promise<string> {
  const seen: string[] = [];
  const client = h.client;
  const original = client.query.bind(client);
  const recording = ((q: unknown, v?: unknown) => {
    const text = typeof q === 'string' ? q : (q as { text: string }).text;
    const values = Array.isArray(v) ? v : ((q as { values?: unknown[] }).values ?? []);
    seen.push(`${readable(text)}${values.map((x, i) => `-- $${i + 1} = ${JSON.stringify(x)}\n`).join('')}`);
    return original(q as string, v as unknown[]);
  }) as typeof client.query;
  await original('BEGIN');
  client.query = recording;
  try {
    const session = sessionOf(o);
    await runMetadataQuery(body, { client, state: h.state, cacheChecks: features.cacheChecks, role: session.role, requestId: 'golden', session });
  } finally {
    client.query = original;
    await original('ROLLBACK');
  }
  return seen.join('\n');
}

const files = readdirSync(DIR).sort();
for (const file of files) {
  const gql = file.endsWith('.graphql');
  const dml = file.endsWith('.dml.json');
  if (!gql && !dml) continue;
  const name = file.replace(/\.graphql$|\.dml\.json$/, '');
  // DML cases record from the one shared connection (its query method swapped, in a transaction): one at a time,
  // or a case would record another's statements and both would BEGIN on the same connection.
  (dml ? test.serial : test)(`golden SQL: ${name}`, async (t) => {
    const text = readFileSync(path.join(DIR, file), 'utf8');
    let actual: string;
    if (gql) {
      const sidecar = path.join(DIR, `${name}.json`);
      const o: CaseOptions = existsSync(sidecar) ? JSON.parse(readFileSync(sidecar, 'utf8')) : {};
      actual = graphqlSql(text, o);
    } else {
      const { query, ...o } = JSON.parse(text) as CaseOptions & { query: unknown };
      actual = await dmlSql(query, o);
    }
    const golden = path.join(DIR, `${name}.sql`);
    if (UPDATE) writeFileSync(golden, actual);
    t.true(existsSync(golden), `missing ${name}.sql: run with GOLDEN_UPDATE=1`);
    t.is(actual, readFileSync(golden, 'utf8'));
  });
}

test('golden SQL: every case has its committed .sql and every .sql its case', (t) => {
  const files = readdirSync(DIR).sort(); // again: an update run has just written the missing ones
  const cases = new Set(files.filter((f) => f.endsWith('.graphql') || f.endsWith('.dml.json')).map((f) => f.replace(/\.graphql$|\.dml\.json$/, '')));
  const sqls = new Set(files.filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, '')));
  t.deepEqual([...sqls].sort(), [...cases].sort());
  t.true(cases.size >= 30);
});
