// The remote schemas this process has introspected, by name. The original introspects a remote when it is added,
// on start-up, on reload_remote_schema and on reload_metadata with reload_remote_schemas, and keeps the result
// until then. Building the schema cache is pure, so the I/O happens before (families.ts, the sync projector) and
// the build reads the results here; a failure is kept too and becomes an inconsistent object.
import type { GraphQLSchema } from 'graphql';
import { isEngineError } from '../core/errors.js';
import type { RemoteSchemaMeta } from '../../events/remote-schemas.js';
import { introspectRemote, resolveRemote } from './introspect.js';

export type Introspected = { ok: true; schema: GraphQLSchema } | { ok: false; reason: string };

interface Entry {
  /** The definition introspected (a changed definition, e.g. by replace_metadata, is introspected again). */
  key: string;
  result: Introspected;
}

const entries = new Map<string, Entry>();

const keyOf = (rs: RemoteSchemaMeta): string => JSON.stringify(rs.definition);

type Env = Record<string, string | undefined>;

/** Introspects one remote; throws the original's error (remote-schema-error, env and URI errors). */
export async function introspectAndKeep(rs: RemoteSchemaMeta, env: Env = process.env): Promise<GraphQLSchema> {
  const schema = await introspectRemote(resolveRemote(rs.definition, env));
  entries.set(rs.name, { key: keyOf(rs), result: { ok: true, schema } });
  return schema;
}

/** Introspects one remote, keeping a failure as its inconsistency reason instead of throwing. */
async function refresh(rs: RemoteSchemaMeta, env: Env): Promise<void> {
  try {
    await introspectAndKeep(rs, env);
  } catch (e) {
    if (!isEngineError(e)) throw e;
    entries.set(rs.name, { key: keyOf(rs), result: { ok: false, reason: e.message } });
  }
}

/**
 * Makes sure every remote schema of `remotes` has a result: all of them when `force` is true (start-up, reload),
 * the named ones when it is a set (another instance's reload_remote_schema), and any never introspected or whose
 * definition changed. In parallel: start-up waits for the slowest remote only.
 */
export async function ensureIntrospected(
  remotes: readonly RemoteSchemaMeta[], force: boolean | ReadonlySet<string>, env: Env = process.env,
): Promise<void> {
  const forced = (rs: RemoteSchemaMeta): boolean => (typeof force === 'boolean' ? force : force.has(rs.name));
  const todo = remotes.filter((rs) => forced(rs) || entries.get(rs.name)?.key !== keyOf(rs));
  await Promise.all(todo.map((rs) => refresh(rs, env)));
}

/** The kept result for this definition; a remote never introspected by this process is reported as such. */
export function introspected(rs: RemoteSchemaMeta): Introspected {
  const e = entries.get(rs.name);
  if (e && e.key === keyOf(rs)) return e.result;
  return { ok: false, reason: `remote schema ${rs.name} has not been introspected` };
}
