// Introspecting remote schemas into the state's RemoteIntrospections (src/cache/types.ts). The original introspects
// a remote when it is added, on start-up, on reload_remote_schema and on reload_metadata with
// reload_remote_schemas, and keeps the result until then. Building the schema cache is pure, so the I/O happens
// before (the write path's I/O checks, metadata/io-checks.ts; the sync projector, on start-up and for other
// instances' events) and its results become an input of the build, kept with the state: a write that rolls back
// drops what it introspected, and every engine of a process has its own. A failure is kept too, and becomes an
// inconsistent object.
import { isEngineError } from '../core/errors.js';
import type { Env } from '../core/env.js';
import type { Introspected, RemoteIntrospection, RemoteIntrospections } from '../cache/types.js';
import type { RemoteSchemaMeta } from '../../events/remote-schemas.js';
import type { LoggedEvent } from '../../events/log.js';
import type { Metadata } from '../../projections/metadata.js';
import { introspectRemote, resolveRemote } from './introspect.js';

const definitionOf = (rs: RemoteSchemaMeta): string => JSON.stringify(rs.definition);

/** Introspects one remote; throws the original's error (remote-schema-error, env and URI errors). */
export async function introspect(rs: RemoteSchemaMeta, env: Env): Promise<RemoteIntrospection> {
  const schema = await introspectRemote(resolveRemote(rs.definition, env));
  return { definition: definitionOf(rs), result: { ok: true, schema } };
}

/** Introspects one remote, keeping a failure as its inconsistency reason instead of throwing. */
async function introspectOrReason(rs: RemoteSchemaMeta, env: Env): Promise<RemoteIntrospection> {
  try {
    return await introspect(rs, env);
  } catch (e) {
    if (!isEngineError(e)) throw e;
    return { definition: definitionOf(rs), result: { ok: false, reason: e.message } };
  }
}

/** `introspections` with these remotes' entries set. */
export function withIntrospections(introspections: RemoteIntrospections, entries: Iterable<[string, RemoteIntrospection]>): RemoteIntrospections {
  const out = new Map(introspections);
  for (const [name, entry] of entries) out.set(name, entry);
  return out;
}

/**
 * The introspections of `remotes` (and of no other remote): introspected again when `force` is true (start-up,
 * reload) or a set that names them (another instance's reload_remote_schema), or when `previous` has none for
 * their definition; the others kept. In parallel: start-up waits for the slowest remote only.
 */
export async function refreshIntrospections(
  previous: RemoteIntrospections, remotes: readonly RemoteSchemaMeta[], force: boolean | ReadonlySet<string>, env: Env,
): Promise<RemoteIntrospections> {
  const forced = (rs: RemoteSchemaMeta): boolean => (typeof force === 'boolean' ? force : force.has(rs.name));
  const entries = await Promise.all(remotes.map(async (rs): Promise<[string, RemoteIntrospection]> => {
    const kept = previous.get(rs.name);
    return [rs.name, !forced(rs) && kept?.definition === definitionOf(rs) ? kept : await introspectOrReason(rs, env)];
  }));
  return new Map(entries);
}

/**
 * The introspections a state after `events` needs (the sync projector's): every remote at start-up (no previous
 * state) and after reload_metadata with reload_remote_schemas, the one named by reload_remote_schema (whichever
 * instance ran it: the event is how the others hear of it), and any new or changed one.
 */
export function introspectionsAfter(
  metadata: Metadata, events: readonly LoggedEvent[], previous: RemoteIntrospections | null, env: Env = process.env,
): Promise<RemoteIntrospections> {
  const all = previous === null || events.some((e) => e.type === 'metadata_reloaded' && e.data.reload_remote_schemas);
  const named = new Set(events.flatMap((e) => (e.type === 'remote_schema_reloaded' ? [e.data.name] : [])));
  return refreshIntrospections(previous ?? new Map(), metadata.remote_schemas, all || named, env);
}

/** The introspection of this definition; a remote this state has not introspected is reported as such. */
export function introspected(introspections: RemoteIntrospections, rs: RemoteSchemaMeta): Introspected {
  const e = introspections.get(rs.name);
  if (e && e.definition === definitionOf(rs)) return e.result;
  return { ok: false, reason: `remote schema ${rs.name} has not been introspected` };
}
