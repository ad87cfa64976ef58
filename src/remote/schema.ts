// Remote schemas in the schema cache and in every role's schema (v1.3 has no remote-schema permissions: every role
// sees every remote field). The cache check reports remotes that could not be introspected or that conflict with
// the tables' schema (remote-schema-conflicts) or with an earlier remote; the others are merged, in metadata order.
// Both halves are wired in by the composition root (src/features.ts): remoteSchemaCheck among the cache checks,
// withRemoteSchemas among the role schemas' extensions; the second merges what the first kept for that cache.
import type { GraphQLSchema } from 'graphql';
import type { CacheCheck } from '../cache/build.js';
import type { InconsistentObject, SchemaCache } from '../cache/types.js';
import { buildRoleSchema } from '../graphql/schema/build.js';
import type { RoleSchema, SchemaExtensions } from '../graphql/role-schema.js';
import { emptyRoutes, mergeConflict, mergeRemote } from './merge.js';
import { introspected } from './introspections.js';

export const remoteSchemaId = (name: string): string => JSON.stringify(['remote_schema', name]);

/** The remotes merged into the schemas of a cache, in metadata order. */
const mergedRemotes = new WeakMap<SchemaCache, Array<{ name: string; schema: GraphQLSchema }>>();

/**
 * The cache check of remote schemas: each is checked against admin's schema built with `before` (the tables' fields
 * and those of the features that come before remote schemas: actions), then against the remotes before it.
 */
export const remoteSchemaCheck = (before: SchemaExtensions): CacheCheck => (metadata, cache, introspections) => {
  const remotes = metadata.remote_schemas;
  if (remotes.length === 0) return [];
  const out: InconsistentObject[] = [];
  const merged: Array<{ name: string; schema: GraphQLSchema }> = [];
  const base = buildRoleSchema(cache, 'admin', before).schema;
  let current = base;
  for (const rs of remotes) {
    const r = introspected(introspections, rs);
    const inconsistent = (reason: string, extra: Partial<InconsistentObject> = {}) =>
      out.push({ type: 'remote_schema', definition: rs, reason, id: remoteSchemaId(rs.name), ...extra } as InconsistentObject);
    if (!r.ok) {
      inconsistent(r.reason);
      continue;
    }
    // Note [Remote conflicts]: a conflict with the tables' schema is the remote's own inconsistency, and what a
    // write creating it answers (remote-schema-conflicts, or constraint-violation when the write is the remote's);
    // a conflict with an earlier remote is one between two objects (the original answers "unexpected").
    const withTables = mergeConflict(base, r.schema);
    if (withTables) {
      inconsistent(withTables, { code: 'remote-schema-conflicts' });
      continue;
    }
    const withRemotes = mergeConflict(current, r.schema);
    if (withRemotes) {
      inconsistent(withRemotes, { id: JSON.stringify(['remote_schema_conflict', rs.name]) });
      continue;
    }
    try {
      current = mergeRemote(current, r.schema, rs.name, emptyRoutes());
      merged.push({ name: rs.name, schema: r.schema });
    } catch (e) {
      inconsistent(`remote schema ${rs.name} cannot be merged: ${(e as Error).message}`);
    }
  }
  mergedRemotes.set(cache, merged);
  return out;
};

/** A role's schema with the remotes that remoteSchemaCheck kept for its cache merged in. */
export function withRemoteSchemas(cache: SchemaCache, rs: RoleSchema): RoleSchema {
  const remotes = mergedRemotes.get(cache);
  if (!remotes?.length) return rs;
  const routes = emptyRoutes();
  let schema = rs.schema;
  for (const r of remotes) {
    // A role's table types may differ from admin's (fewer columns): a remote type clashing only there is left out.
    if (mergeConflict(schema, r.schema)) continue;
    try {
      schema = mergeRemote(schema, r.schema, r.name, routes);
    } catch {
      // as above: this role does without that remote
    }
  }
  return { ...rs, schema, remote: routes, hasMutations: rs.hasMutations || routes.mutation.size > 0 };
}
