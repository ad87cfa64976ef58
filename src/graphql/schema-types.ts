// Where the request path looks a role's types up (Note [Lazy role schemas], schema/build.ts): the role's own types
// as far as they are built, with the whole GraphQLSchema built only for a name they do not hold; or, for a role
// schema an extension replaced (remote schemas), or one built whole (Relay), its schema.
import type { GraphQLSchema } from 'graphql';
import type { RoleSchema } from './role-schema.js';

/** What the request path reads of a schema: its root types and its types by name. */
export type SchemaTypes = Pick<GraphQLSchema, 'getType' | 'getQueryType' | 'getMutationType' | 'getSubscriptionType'>;

/** By role schema object: an extension's `{ ...rs, schema }` is another object, so it reads its own schema. */
const lazy = new WeakMap<RoleSchema, SchemaTypes>();

export function setSchemaTypes(rs: RoleSchema, types: SchemaTypes): void {
  lazy.set(rs, types);
}

export const schemaTypes = (rs: RoleSchema): SchemaTypes => lazy.get(rs) ?? rs.schema;
