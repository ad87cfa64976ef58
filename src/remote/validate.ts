// Checks of a remote's introspection result before it is built into a schema, with the original's messages:
// the JSON shape (aeson-style "Error in $.types[1]...: parsing Text failed" for the fields the original reads) and
// the interface and union rules graphql-js's buildClientSchema does not check (or words differently).
import type { IntrospectionQuery } from 'graphql';
import { jsonKind } from '../core/json-kind.js';

type Json = Record<string, unknown>;

/** A type reference as introspection gives it: {kind, name, ofType}. */
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

interface InputValue {
  name: string;
  type: TypeRef;
}

interface Field {
  name: string;
  args: InputValue[];
  type: TypeRef;
}

interface FullType {
  kind: string;
  name: string;
  fields: Field[] | null;
  interfaces: Array<{ name: string }> | null;
  possibleTypes: Array<{ name: string }> | null;
}

class ShapeError extends Error {}

const fail = (path: string, message: string): never => {
  throw new ShapeError(`Error in ${path}: ${message}`);
};

function obj(v: unknown, path: string): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, `parsing Object failed, expected Object, but encountered ${jsonKind(v)}`);
  return v as Json;
}

function text(o: Json, key: string, path: string): string {
  if (!(key in o)) fail(path, `key "${key}" not found`);
  const v = o[key];
  if (typeof v !== 'string') fail(`${path}.${key}`, `parsing Text failed, expected String, but encountered ${jsonKind(v)}`);
  return v as string;
}

function list(o: Json, key: string, path: string, optional: boolean): unknown[] | null {
  const v = o[key];
  if ((v === undefined || v === null) && optional) return null;
  if (!Array.isArray(v)) fail(`${path}.${key}`, `parsing [] failed, expected Array, but encountered ${jsonKind(v)}`);
  return v as unknown[];
}

function typeRef(v: unknown, path: string): TypeRef {
  const o = obj(v, path);
  const kind = text(o, 'kind', path);
  if (kind === 'NON_NULL' || kind === 'LIST') return { kind, name: null, ofType: typeRef(o.ofType, `${path}.ofType`) };
  return { kind, name: text(o, 'name', path), ofType: null };
}

const named = (v: unknown, path: string): { name: string } => ({ name: text(obj(v, path), 'name', path) });

function inputValues(vs: unknown[] | null, path: string): InputValue[] {
  return (vs ?? []).map((a, i) => {
    const p = `${path}[${i}]`;
    const o = obj(a, p);
    return { name: text(o, 'name', p), type: typeRef(o.type, `${p}.type`) };
  });
}

/** The parts of `__schema.types` the checks read; throws ShapeError with the original's message. */
function readTypes(schema: unknown): FullType[] {
  const s = obj(schema, '$');
  return (list(s, 'types', '$', false) as unknown[]).map((t, i) => {
    const p = `$.types[${i}]`;
    const o = obj(t, p);
    const kind = text(o, 'kind', p);
    const name = text(o, 'name', p);
    const fields = list(o, 'fields', p, true)?.map((f, j) => {
      const fp = `${p}.fields[${j}]`;
      const fo = obj(f, fp);
      return { name: text(fo, 'name', fp), args: inputValues(list(fo, 'args', fp, true), `${fp}.args`), type: typeRef(fo.type, `${fp}.type`) };
    }) ?? null;
    const interfaces = list(o, 'interfaces', p, true)?.map((x, j) => named(x, `${p}.interfaces[${j}]`)) ?? null;
    const possibleTypes = list(o, 'possibleTypes', p, true)?.map((x, j) => named(x, `${p}.possibleTypes[${j}]`)) ?? null;
    return { kind, name, fields, interfaces, possibleTypes };
  });
}

const show = (t: TypeRef): string =>
  t.kind === 'NON_NULL' ? `${show(t.ofType!)}!` : t.kind === 'LIST' ? `[${show(t.ofType!)}]` : t.name!;

const sameType = (a: TypeRef, b: TypeRef): boolean => show(a) === show(b);

/** Whether `sub` may stand for `sup` in an implementing object (the GraphQL spec's covariance). */
function isSubType(types: Map<string, FullType>, sub: TypeRef, sup: TypeRef): boolean {
  if (sameType(sub, sup)) return true;
  if (sup.kind === 'NON_NULL') return sub.kind === 'NON_NULL' && isSubType(types, sub.ofType!, sup.ofType!);
  if (sub.kind === 'NON_NULL') return isSubType(types, sub.ofType!, sup);
  if (sup.kind === 'LIST') return sub.kind === 'LIST' && isSubType(types, sub.ofType!, sup.ofType!);
  if (sub.kind === 'LIST') return false;
  const superType = types.get(sup.name!);
  const subType = types.get(sub.name!);
  if (!superType || !subType) return false;
  if (superType.kind === 'INTERFACE') return (subType.interfaces ?? []).some((i) => i.name === sup.name);
  if (superType.kind === 'UNION') return (superType.possibleTypes ?? []).some((p) => p.name === sub.name);
  return false;
}

const q = (s: string) => `'${s}'`;

function objectErrors(types: Map<string, FullType>, o: FullType): string[] {
  const errors: string[] = [];
  for (const { name: iname } of o.interfaces ?? []) {
    const iface = types.get(iname);
    if (!iface || iface.kind !== 'INTERFACE') {
      errors.push(`Could not find interface ${q(iname)} implemented by Object type ${q(o.name)}`);
      continue;
    }
    for (const f of iface.fields ?? []) {
      const of = (o.fields ?? []).find((x) => x.name === f.name);
      if (!of) {
        errors.push(`Interface field ${q(iname)}."${f.name}" expected, but ${q(o.name)} does not provide it`);
        continue;
      }
      if (!isSubType(types, of.type, f.type)) {
        errors.push(`The type of Object field ${q(o.name)}."${f.name}" (${show(of.type)}) is not the same type/sub type of Interface field ${q(iname)}."${f.name}" (${show(f.type)})`);
      }
      for (const a of f.args) {
        const oa = of.args.find((x) => x.name === a.name);
        if (!oa) errors.push(`Interface field argument ${q(iname)}."${f.name}"("${a.name}":) required, but Object field ${q(o.name)}."${f.name}" does not provide it`);
        else if (!sameType(oa.type, a.type)) {
          errors.push(`Interface field argument ${q(iname)}."${f.name}"("${a.name}":) expects type ${show(a.type)}, but ${q(o.name)}."${f.name}"("${a.name}":) has type ${show(oa.type)}`);
        }
      }
      for (const oa of of.args) {
        if (oa.type.kind === 'NON_NULL' && !f.args.some((a) => a.name === oa.name)) {
          errors.push(`Object field argument ${q(o.name)}."${f.name}"("${oa.name}":) is of required type ${show(oa.type)}, but is not provided by Interface field ${q(iname)}."${f.name}"`);
        }
      }
    }
  }
  return errors;
}

function unionErrors(types: Map<string, FullType>, u: FullType): string[] {
  const members = u.possibleTypes ?? [];
  if (members.length === 0) return [`List of member types cannot be empty for union type ${q(u.name)}`];
  return members.flatMap(({ name }) => {
    const t = types.get(name);
    if (!t) return [`Could not find type ${q(name)}, which is defined as a member type of Union ${q(u.name)}`];
    if (t.kind !== 'OBJECT') return [`Union type ${q(u.name)} can only include object types. It cannot include ${q(name)}`];
    return [];
  });
}

/** The original's message for an unusable introspection result, or null when it may be built. */
export function introspectionError(data: IntrospectionQuery): string | null {
  let types: FullType[];
  try {
    if (!('__schema' in data)) fail('$', 'key "__schema" not found');
    types = readTypes(data.__schema);
  } catch (e) {
    if (e instanceof ShapeError) return e.message;
    throw e;
  }
  const byName = new Map(types.map((t) => [t.name, t]));
  const errors: string[] = [];
  // In name order, as the original's map of types is walked (Droid's errors before Human's).
  for (const t of [...types].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (t.name.startsWith('__')) continue;
    if (t.kind === 'INTERFACE' && (t.fields ?? []).length === 0) errors.push(`List of fields cannot be empty for interface ${q(t.name)}`);
    else if (t.kind === 'OBJECT') errors.push(...objectErrors(byName, t));
    else if (t.kind === 'UNION') errors.push(...unionErrors(byName, t));
  }
  return errors[0] ?? null; // the original stops at the first
}
