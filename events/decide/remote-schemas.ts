// Remote schemas as metadata: add_remote_schema / remove_remote_schema / reload_remote_schema (their args are in
// src/metadata/operations/remote-schemas.ts, the stored shape in events/remote-schemas.ts). decide checks what needs
// no I/O (name, url xor url_from_env); the write path then resolves the environment and introspects the remote
// (src/remote/introspect.ts) before the event is kept; src/remote merges them into GraphQL.
import { EngineError } from '../../src/core/errors.js';
import { displayName, quote as q } from '../../src/core/names.js';
import type { RemoteSchemaMeta } from '../remote-schemas.js';
import { ev, type Event, type Metadata } from '../types.js';
import { type DecideContext } from './context.js';

export type RemoteSchemaCommand =
  | { op: 'add_remote_schema'; remote_schema: RemoteSchemaMeta }
  | { op: 'remove_remote_schema'; name: string }
  | { op: 'reload_remote_schema'; name: string };

/** Tables' remote relationships naming the remote schema (they would break without it). */
function dependents(m: Metadata, name: string): string[] {
  return Object.values(m.tables).flatMap((t) =>
    (t.remote_relationships as Array<{ name?: unknown; definition?: { remote_schema?: unknown } }>)
      .filter((r) => r.definition?.remote_schema === name)
      .map((r) => `remote relationship ${displayName(t.table)}.${String(r.name)}`),
  );
}

export function decideRemoteSchema(cmd: RemoteSchemaCommand, ctx: DecideContext): Event[] {
  const m = ctx.metadata;
  switch (cmd.op) {
    case 'add_remote_schema': {
      const { name, definition } = cmd.remote_schema;
      if (m.remote_schemas.some((r) => r.name === name)) {
        throw new EngineError('already-exists', `remote schema with name ${q(name)} already exists`, { path: '$.args' });
      }
      const n = Number(definition.url !== undefined) + Number(definition.url_from_env !== undefined);
      if (n !== 1) {
        throw new EngineError('invalid-params', `both \`url\` and \`url_from_env\` can't be ${n === 0 ? 'empty' : 'present'}`, { path: '$.args' });
      }
      return [ev('remote_schema_added', { remote_schema: cmd.remote_schema })];
    }
    case 'remove_remote_schema': {
      if (!m.remote_schemas.some((r) => r.name === cmd.name)) throw new EngineError('not-exists', 'no such remote schema', { path: '$.args' });
      const deps = dependents(m, cmd.name);
      if (deps.length) {
        throw new EngineError('dependency-error', `cannot drop due to the following dependent objects : ${deps.join(', ')}`, { path: '$.args' });
      }
      return [ev('remote_schema_removed', { name: cmd.name })];
    }
    case 'reload_remote_schema':
      if (!m.remote_schemas.some((r) => r.name === cmd.name)) {
        throw new EngineError('not-exists', `remote schema with name ${q(cmd.name)} does not exist`, { path: '$.args' });
      }
      // A fact other instances act on, and a line of the metadata log like every other operation.
      return [ev('remote_schema_reloaded', { name: cmd.name })];
  }
}
