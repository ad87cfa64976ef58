// Remote schemas as metadata: add_remote_schema / remove_remote_schema / reload_remote_schema (their args are in
// src/metadata/operations/remote-schemas.ts). decide checks what needs no I/O (name, url xor url_from_env); the
// write path then resolves the environment and introspects the remote (src/remote/introspect.ts) before the event
// is kept; src/remote merges them into GraphQL.
import { z } from 'zod';
import { EngineError } from '../../src/core/errors.js';
import { displayName } from '../../src/core/names.js';
import { comment, headerConf, nonEmptyText, type HeaderConf } from '../argument-shapes.js';
import { ev, type Event, type Metadata } from '../types.js';
import { q, type DecideContext } from './dependencies.js';

const remoteDef = z.object({
  url: z.string().nullable().optional(),
  url_from_env: z.string().nullable().optional(),
  headers: z.array(headerConf).nullable().optional(),
  forward_client_headers: z.boolean().nullable().optional(),
  timeout_seconds: z.number().int().nullable().optional(),
});

const addArgs = z.object({ name: nonEmptyText, definition: remoteDef, comment });

/** The stored (and exported) definition: keys in the export's order, absent ones left out. */
export interface RemoteSchemaDef {
  url?: string;
  url_from_env?: string;
  timeout_seconds?: number;
  headers?: HeaderConf[];
  forward_client_headers?: true;
}

export interface RemoteSchemaMeta {
  name: string;
  definition: RemoteSchemaDef;
  comment?: string;
}

export type RemoteSchemaCommand =
  | { op: 'add_remote_schema'; remote_schema: RemoteSchemaMeta }
  | { op: 'remove_remote_schema'; name: string }
  | { op: 'reload_remote_schema'; name: string };

/** The stored definition: keys in the export's order, absent/default ones left out. */
function storedDef(d: z.output<typeof remoteDef>): RemoteSchemaDef {
  return {
    ...(d.url != null ? { url: d.url } : {}),
    ...(d.url_from_env != null ? { url_from_env: d.url_from_env } : {}),
    ...(d.timeout_seconds != null ? { timeout_seconds: d.timeout_seconds } : {}),
    ...(d.headers != null && d.headers.length ? { headers: d.headers } : {}),
    ...(d.forward_client_headers === true ? { forward_client_headers: true as const } : {}),
  };
}

/** A remote schema as add_remote_schema's args and replace_metadata read it. */
export const storedRemoteSchema = addArgs.transform(
  (a): RemoteSchemaMeta => ({ name: a.name, definition: storedDef(a.definition), ...(a.comment != null ? { comment: a.comment } : {}) }),
);


export const remoteSchemas = (m: Metadata): RemoteSchemaMeta[] => m.remote_schemas as RemoteSchemaMeta[];

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
      if (remoteSchemas(m).some((r) => r.name === name)) {
        throw new EngineError('already-exists', `remote schema with name ${q(name)} already exists`, { path: '$.args' });
      }
      const n = Number(definition.url !== undefined) + Number(definition.url_from_env !== undefined);
      if (n !== 1) {
        throw new EngineError('invalid-params', `both \`url\` and \`url_from_env\` can't be ${n === 0 ? 'empty' : 'present'}`, { path: '$.args' });
      }
      return [ev('remote_schema_added', { remote_schema: cmd.remote_schema })];
    }
    case 'remove_remote_schema': {
      if (!remoteSchemas(m).some((r) => r.name === cmd.name)) throw new EngineError('not-exists', 'no such remote schema', { path: '$.args' });
      const deps = dependents(m, cmd.name);
      if (deps.length) {
        throw new EngineError('dependency-error', `cannot drop due to the following dependent objects : ${deps.join(', ')}`, { path: '$.args' });
      }
      return [ev('remote_schema_removed', { name: cmd.name })];
    }
    case 'reload_remote_schema':
      if (!remoteSchemas(m).some((r) => r.name === cmd.name)) {
        throw new EngineError('not-exists', `remote schema with name ${q(cmd.name)} does not exist`, { path: '$.args' });
      }
      // A fact other instances act on, and a line of the metadata log like every other operation.
      return [ev('remote_schema_reloaded', { name: cmd.name })];
  }
}
