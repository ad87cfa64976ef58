// The I/O half of the event-trigger and remote-schema operations, run after their (pure) decide: a new trigger's
// environment variables must be set, and a new remote schema is resolved and introspected before it is kept;
// reload_remote_schema and reload_metadata (reload_remote_schemas) introspect again (src/remote/introspections.ts).
// replace_metadata gets the same checks for every trigger and remote schema of the new document.
import { EngineError, isEngineError } from '../core/errors.js';
import type { QualifiedName } from '../core/names.js';
import { eventTriggerEnvError } from '../../events/decide/event-triggers.js';
import { eventTriggers } from '../../events/types.js';
import type { EventTriggerConf } from '../../events/event-triggers.js';
import type { RemoteSchemaMeta } from '../../events/remote-schemas.js';
import type { Metadata } from '../../projections/metadata.js';
import { ensureIntrospected, introspectAndKeep } from '../remote/introspections.js';

export type Env = Record<string, string | undefined>;

/** A new trigger's environment variables (webhook_from_env, headers' value_from_env) must be set. */
export function checkEventTriggerEnv(table: QualifiedName, trigger: EventTriggerConf, env: Env): void {
  const e = eventTriggerEnvError(table, trigger, env);
  if (e) throw e;
}

/** A new remote schema is resolved and introspected before it is kept. */
export async function checkRemoteSchema(rs: RemoteSchemaMeta, env: Env): Promise<void> {
  await introspectAndKeep(rs, env);
}

/** reload_remote_schema introspects the remote again (an error refuses the reload). */
export async function reloadRemoteSchema(m: Metadata, name: string, env: Env): Promise<void> {
  const rs = m.remote_schemas.find((r) => r.name === name);
  if (rs) await introspectAndKeep(rs, env);
}

/** reload_metadata with reload_remote_schemas: every remote again; an unreachable one becomes inconsistent. */
export async function reloadRemoteSchemas(m: Metadata, env: Env): Promise<void> {
  await ensureIntrospected(m.remote_schemas, true, env);
}

/** replace_metadata is strict: a trigger with an unset variable or an unreachable remote schema rejects it. */
export async function checkReplacedMetadata(m: Metadata, env: Env): Promise<void> {
  const inconsistent: unknown[] = [];
  for (const { table, trigger } of eventTriggers(m)) {
    const e = eventTriggerEnvError(table, trigger, env);
    if (e) inconsistent.push(...(e.internal as unknown[]));
  }
  for (const rs of m.remote_schemas) {
    try {
      await introspectAndKeep(rs, env);
    } catch (e) {
      if (!isEngineError(e)) throw e;
      inconsistent.push({ definition: rs, reason: e.message, type: 'remote_schema' });
    }
  }
  if (inconsistent.length) {
    throw new EngineError('unexpected', 'cannot continue due to inconsistent metadata', { path: '$.args', internal: inconsistent });
  }
}
