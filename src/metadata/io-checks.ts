// The I/O half of the event-trigger and remote-schema operations, run after their (pure) decide: a new trigger's
// environment variables must be set, and a new remote schema is resolved and introspected before it is kept;
// reload_remote_schema and reload_metadata (reload_remote_schemas) introspect again (src/remote/introspections.ts).
// replace_metadata gets the same checks for every trigger and remote schema of the new document. What is
// introspected is returned, to be kept with the state the operation builds (and dropped if the request fails).
import { EngineError, isEngineError } from '../core/errors.js';
import type { Env } from '../core/env.js';
import type { QualifiedName } from '../core/names.js';
import type { RemoteIntrospection, RemoteIntrospections } from '../cache/types.js';
import { eventTriggerEnvError } from '../../events/decide/event-triggers.js';
import { eventTriggers } from '../../events/types.js';
import type { EventTriggerConf } from '../../events/event-triggers.js';
import type { RemoteSchemaMeta } from '../../events/remote-schemas.js';
import type { Metadata } from '../../projections/metadata.js';
import { introspect, refreshIntrospections, withIntrospections } from '../remote/introspections.js';

/** What an operation's I/O starts from: the metadata it decided on, and the remote schemas introspected so far. */
export interface IoInputs {
  metadata: Metadata;
  remoteSchemas: RemoteIntrospections;
}

/** A new trigger's environment variables (webhook_from_env, headers' value_from_env) must be set. */
export function checkEventTriggerEnv(table: QualifiedName, trigger: EventTriggerConf, env: Env): void {
  const e = eventTriggerEnvError(table, trigger, env);
  if (e) throw e;
}

/** A new remote schema is resolved and introspected before it is kept. */
export async function checkRemoteSchema(rs: RemoteSchemaMeta, env: Env, inputs: IoInputs): Promise<RemoteIntrospections> {
  return withIntrospections(inputs.remoteSchemas, [[rs.name, await introspect(rs, env)]]);
}

/** reload_remote_schema introspects the remote again (an error refuses the reload). */
export async function reloadRemoteSchema(name: string, env: Env, inputs: IoInputs): Promise<RemoteIntrospections> {
  const rs = inputs.metadata.remote_schemas.find((r) => r.name === name);
  return rs ? withIntrospections(inputs.remoteSchemas, [[rs.name, await introspect(rs, env)]]) : inputs.remoteSchemas;
}

/** reload_metadata with reload_remote_schemas: every remote again; an unreachable one becomes inconsistent. */
export function reloadRemoteSchemas(env: Env, inputs: IoInputs): Promise<RemoteIntrospections> {
  return refreshIntrospections(inputs.remoteSchemas, inputs.metadata.remote_schemas, true, env);
}

/** replace_metadata is strict: a trigger with an unset variable or an unreachable remote schema rejects it. */
export async function checkReplacedMetadata(m: Metadata, env: Env): Promise<RemoteIntrospections> {
  const inconsistent: unknown[] = [];
  for (const { table, trigger } of eventTriggers(m)) {
    const e = eventTriggerEnvError(table, trigger, env);
    if (e) inconsistent.push(...(e.internal as unknown[]));
  }
  const introspected: Array<[string, RemoteIntrospection]> = [];
  for (const rs of m.remote_schemas) {
    try {
      introspected.push([rs.name, await introspect(rs, env)]);
    } catch (e) {
      if (!isEngineError(e)) throw e;
      inconsistent.push({ definition: rs, reason: e.message, type: 'remote_schema' });
    }
  }
  if (inconsistent.length) {
    throw new EngineError('unexpected', 'cannot continue due to inconsistent metadata', { path: '$.args', internal: inconsistent });
  }
  return new Map(introspected);
}
