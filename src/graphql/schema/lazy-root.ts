// Root types (query_root, mutation_root, subscription_root) whose fields are defined when first read (Note [Lazy
// role schemas], build.ts): with 1,000 tables a root has thousands of fields and a request reads one or two.
import { GraphQLObjectType, type GraphQLField, type GraphQLFieldConfig, type GraphQLFieldMap } from 'graphql';

/** A root field's config, made when the field is first read. */
export type FieldThunk = () => GraphQLFieldConfig<unknown, unknown>;

/** `make` run on the first call only (query_root and subscription_root share their fields' configs). */
export function once<T>(make: () => T): () => T {
  let made = false;
  let value: T;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value;
  };
}

/** One field as graphql-js defines it from its config (through a throwaway type: defineFieldMap is not exported). */
function defineField(name: string, config: GraphQLFieldConfig<unknown, unknown>): GraphQLField<unknown, unknown> {
  return new GraphQLObjectType({ name: 'lazy_root', fields: { [name]: config } }).getFields()[name];
}

/**
 * getFields() gives a map with the fields in name order (as sortedMap puts them), each an accessor that defines the
 * field on first read and is replaced by it: whatever reads every field (the GraphQLSchema constructor,
 * introspection, printing, validation) defines them all, as the plain type would have.
 */
export class LazyRootType extends GraphQLObjectType {
  private readonly entries: () => Array<[string, FieldThunk]>;
  private fields: GraphQLFieldMap<unknown, unknown> | null = null;

  /** `entries`: the fields by name, or what lists them when the fields are first read. */
  constructor(name: string, entries: Array<[string, FieldThunk]> | (() => Array<[string, FieldThunk]>)) {
    super({ name, fields: {} });
    this.entries = typeof entries === 'function' ? entries : () => entries;
  }

  override getFields(): GraphQLFieldMap<unknown, unknown> {
    if (this.fields) return this.fields;
    const map = Object.create(null) as GraphQLFieldMap<unknown, unknown>;
    const entries = [...this.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [name, make] of entries) {
      Object.defineProperty(map, name, {
        enumerable: true,
        configurable: true,
        get: () => {
          const value = defineField(name, make());
          Object.defineProperty(map, name, { value, enumerable: true, writable: false, configurable: false });
          return value;
        },
      });
    }
    this.fields = map;
    return map;
  }
}
