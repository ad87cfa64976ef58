// The fields of `mutation_root`: the tables' insert/update/delete fields (mutation-fields.ts); other features add
// theirs through SchemaExtensions (build.ts). With no fields there is no mutation_root at all, as in the original
// ("no mutations exist").
import type { RoleContext } from './context.js';
import { tableMutationRootFields } from './mutation-fields.js';
export { hasTableMutations } from './mutation-fields.js';
import type { FieldThunk } from './lazy-root.js';

/** The tables' mutation_root fields for a role, each config made when first read (lazy-root.ts). */
export function mutationFields(ctx: RoleContext): Array<[string, FieldThunk]> {
  return tableMutationRootFields(ctx);
}
