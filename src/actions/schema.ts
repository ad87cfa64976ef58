// Actions in a role's GraphQL schema: the custom types they use (scalars, enums, input objects, objects with
// relationships to the tables the role may select), mutation actions on mutation_root, query actions and the async
// `<action>(id:)` fields on query_root. A role sees an action only with an action permission; admin sees all.
import {
  GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLID, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull,
  GraphQLObjectType, GraphQLScalarType, GraphQLString, Kind, parseType, isNonNullType,
  type GraphQLFieldConfig, type GraphQLFieldConfigArgumentMap, type GraphQLInputType, type GraphQLNamedType, type GraphQLOutputType,
  type TypeNode,
} from 'graphql';
import { qualifiedKey } from '../core/names.js';
import type { ActionInfo } from '../cache/types.js';
import type { CustomTypes } from '../../events/actions.js';
import { PG_SCALARS } from '../../events/decide/actions.js';
import type { RoleContext, TableView } from '../graphql/schema/context.js';
import { named, scalarType, sortedMap } from '../graphql/schema/types.js';
import { selectArgs, tableObjectType } from '../graphql/schema/select.js';

/** Postgres type names a custom scalar may reuse: those keep the Postgres scalar. */
const PG_NAMES = PG_SCALARS;

const BUILTIN: Record<string, GraphQLNamedType> = { Int: GraphQLInt, Float: GraphQLFloat, String: GraphQLString, Boolean: GraphQLBoolean, ID: GraphQLID };

type ObjectDef = NonNullable<CustomTypes['objects']>[number];
export type RelationshipDef = NonNullable<ObjectDef['relationships']>[number];

export const customTypesOf = (ctx: RoleContext): CustomTypes => ctx.cache.customTypes ?? {};

/** Actions the role may use, in name order. */
export function visibleActions(ctx: RoleContext): ActionInfo[] {
  return Object.values(ctx.cache.actions ?? {})
    .filter((a) => ctx.role === 'admin' || a.roles.includes(ctx.role))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const parseTypeExpr = (expr: string): TypeNode => parseType(expr);

export function baseName(t: TypeNode): string {
  return t.kind === Kind.NAMED_TYPE ? t.name.value : baseName(t.type);
}

export function isListExpr(t: TypeNode): boolean {
  if (t.kind === Kind.NON_NULL_TYPE) return isListExpr(t.type);
  return t.kind === Kind.LIST_TYPE;
}

/** A type expression's type, its named types from `base` (input types for arguments, output types for fields). */
function wrap(t: TypeNode, base: (name: string) => GraphQLInputType): GraphQLInputType;
function wrap(t: TypeNode, base: (name: string) => GraphQLOutputType): GraphQLOutputType;
function wrap(t: TypeNode, base: (name: string) => GraphQLInputType | GraphQLOutputType): GraphQLInputType | GraphQLOutputType {
  if (t.kind === Kind.NAMED_TYPE) return base(t.name.value);
  if (t.kind === Kind.LIST_TYPE) return new GraphQLList(wrap(t.type, base as (name: string) => GraphQLInputType));
  return new GraphQLNonNull(wrap(t.type, base as (name: string) => GraphQLInputType));
}

/** A named input type: built-in or Postgres scalar, custom scalar, enum or input object. */
function namedInput(ctx: RoleContext, name: string): GraphQLInputType {
  const b = Object.prototype.hasOwnProperty.call(BUILTIN, name) ? BUILTIN[name] : undefined;
  if (b) return b as GraphQLInputType;
  const ct = customTypesOf(ctx);
  const e = ct.enums?.find((x) => x.name === name);
  if (e) return enumType(ctx, e);
  const sc = customScalar(ctx, name);
  if (sc) return sc;
  const io = ct.input_objects?.find((x) => x.name === name);
  if (io) {
    return named(ctx, name, () => new GraphQLInputObjectType({
      name, description: io.description ?? undefined,
      fields: () => sortedMap(io.fields.map((f) => [f.name, { type: inputType(ctx, f.type), description: f.description ?? undefined }])),
    }));
  }
  return scalarType(ctx, name);
}

/** A scalar of set_custom_types (not a Postgres name): any JSON value, passed to the handler as it is. */
function customScalar(ctx: RoleContext, name: string): GraphQLScalarType | null {
  const sc = customTypesOf(ctx).scalars?.find((x) => x.name === name);
  if (!sc || PG_NAMES.has(name)) return null;
  return named(ctx, name, () => new GraphQLScalarType({ name, description: sc.description ?? undefined, extensions: { anyJson: true } }));
}

function enumType(ctx: RoleContext, e: NonNullable<CustomTypes['enums']>[number]): GraphQLEnumType {
  return named(ctx, e.name, () => new GraphQLEnumType({
    name: e.name, description: e.description ?? undefined,
    values: Object.fromEntries(e.values.map((v) => [v.value, {
      value: v.value, description: v.description ?? undefined, deprecationReason: v.is_deprecated ? 'deprecated' : undefined,
    }])),
  }));
}

export const inputType = (ctx: RoleContext, expr: string): GraphQLInputType => wrap(parseTypeExpr(expr), (n) => namedInput(ctx, n));

export function objectDef(ctx: RoleContext, name: string): ObjectDef | undefined {
  return customTypesOf(ctx).objects?.find((o) => o.name === name);
}

/** The role's view of a relationship's remote table (absent when the role may not select it). */
export const relationshipView = (ctx: RoleContext, r: RelationshipDef): TableView | undefined => ctx.tables.get(qualifiedKey(r.remote_table));

function namedOutput(ctx: RoleContext, name: string): GraphQLOutputType {
  const b = Object.prototype.hasOwnProperty.call(BUILTIN, name) ? BUILTIN[name] : undefined;
  if (b) return b as GraphQLOutputType;
  const ct = customTypesOf(ctx);
  const e = ct.enums?.find((x) => x.name === name);
  if (e) return enumType(ctx, e);
  const o = ct.objects?.find((x) => x.name === name);
  if (o) {
    return named(ctx, name, () => new GraphQLObjectType({
      name, description: o.description ?? undefined,
      fields: () => {
        const fields: Array<[string, GraphQLFieldConfig<unknown, unknown>]> = o.fields.map((f) => [f.name, {
          type: wrap(parseTypeExpr(f.type), (n) => namedOutput(ctx, n)), description: f.description ?? undefined,
        }]);
        for (const r of o.relationships ?? []) {
          const view = relationshipView(ctx, r);
          if (!view) continue;
          const obj = tableObjectType(ctx, view);
          fields.push([r.name, r.type === 'object'
            ? { type: obj }
            : { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(obj))), args: selectArgs(ctx, view) }]);
        }
        return sortedMap(fields);
      },
    }));
  }
  return customScalar(ctx, name) ?? scalarType(ctx, name);
}

export const outputType = (ctx: RoleContext, expr: string): GraphQLOutputType => wrap(parseTypeExpr(expr), (n) => namedOutput(ctx, n));

export function actionArgs(ctx: RoleContext, a: ActionInfo): GraphQLFieldConfigArgumentMap {
  return sortedMap(a.definition.arguments.map((arg) => [arg.name, { type: inputType(ctx, arg.type), description: arg.description }]));
}

/** `<action>`: the async action's stored call (id, created_at, errors, output). */
export function asyncStatusType(ctx: RoleContext, a: ActionInfo): GraphQLObjectType {
  return named(ctx, a.name, () => new GraphQLObjectType({
    name: a.name, description: a.comment ?? undefined,
    fields: () => {
      const out = outputType(ctx, a.definition.output_type);
      return sortedMap([
        ['created_at', { type: new GraphQLNonNull(scalarType(ctx, 'timestamptz')) }],
        ['errors', { type: scalarType(ctx, 'json') }],
        ['id', { type: new GraphQLNonNull(scalarType(ctx, 'uuid')) }],
        ['output', { type: isNonNullType(out) ? out.ofType : out }],
      ]);
    },
  }));
}
