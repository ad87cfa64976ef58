// A tagged-template SQL builder (pg-sql2 style): nodes carry a private brand so JSON can never pass for SQL,
// values only ever become `$n` parameters, identifiers are always quoted.
import type { PgTypeRef } from '../ir/types.js';

const BRAND: unique symbol = Symbol('engine.sql');

/**
 * Where a `$n` parameter's value comes from at execution time. A compiled statement keeps descriptors, not values,
 * so it can be reused with other GraphQL variables and sessions (Note [Reusable plans] in src/ir/types.ts).
 */
export type ParamSlot =
  /** A constant known at compile time, already in the form sent to pg (string, string[] or null). */
  | { kind: 'const'; value: unknown }
  /** A GraphQL variable, or a path inside one, converted for `pgType`. */
  | { kind: 'variable'; name: string; path: Array<string | number>; pgType: PgTypeRef; defaultValue?: unknown }
  /** A session variable (lower-cased name). */
  | { kind: 'session'; name: string }
  /** The whole session object as JSON text. */
  | { kind: 'session_object' };

type Item = { t: 'raw'; s: string } | { t: 'param'; slot: ParamSlot };

export interface SQL {
  readonly [BRAND]: true;
  readonly items: readonly Item[];
}

const node = (items: readonly Item[]): SQL => ({ [BRAND]: true, items });

export const isSql = (x: unknown): x is SQL => typeof x === 'object' && x !== null && (x as { [BRAND]?: unknown })[BRAND] === true;

/** Template: literal parts are SQL text, every interpolation must be an SQL node (or an array of nodes, joined by ''). */
export function sql(strings: TemplateStringsArray, ...values: Array<SQL | readonly SQL[]>): SQL {
  const items: Item[] = [];
  strings.forEach((s, i) => {
    if (s !== '') items.push({ t: 'raw', s });
    if (i < values.length) {
      const v = values[i];
      const list = Array.isArray(v) ? v : [v];
      for (const n of list as SQL[]) {
        if (!isSql(n)) throw new TypeError('sql: interpolated value is not an SQL node (use param() or ident())');
        items.push(...n.items);
      }
    }
  });
  return node(items);
}

/** A compile-time constant SQL fragment (keywords, operators). Never pass user input. */
export const raw = (text: string): SQL => node([{ t: 'raw', s: text }]);

/** A quoted identifier, or a dotted chain of them (`ident('public', 'author')` → "public"."author"). */
export const ident = (...names: string[]): SQL => raw(names.map((n) => `"${n.replace(/"/g, '""')}"`).join('.'));

/** A parameter placeholder. */
export const param = (slot: ParamSlot): SQL => node([{ t: 'param', slot }]);

/** A constant value sent as a parameter. */
export const value = (v: unknown): SQL => param({ kind: 'const', value: v });

/**
 * A string literal for compile-time text (JSON keys of the response, field names). Quotes are doubled;
 * standard_conforming_strings is on in every supported Postgres, so backslashes are plain characters.
 */
export const literal = (s: string): SQL => {
  if (s.includes('\0')) throw new TypeError('sql.literal: NUL character');
  return raw(`'${s.replace(/'/g, "''")}'`);
};

export function join(nodes: readonly SQL[], separator: string): SQL {
  const items: Item[] = [];
  nodes.forEach((n, i) => {
    if (i > 0 && separator !== '') items.push({ t: 'raw', s: separator });
    items.push(...n.items);
  });
  return node(items);
}

export const empty: SQL = node([]);

export interface CompiledSql {
  text: string;
  slots: ParamSlot[];
  /** JSON path reported with this statement's database errors instead of `$` (an insert's `objects` argument). */
  errorPath?: string;
  /** A mutation statement that is atomic on its own and sets `engine.user` itself: alone in a plan, it needs no BEGIN. */
  standalone?: boolean;
  /** Every column of its rows is text (`(...)::text`): the rows need no description to be read (src/execute/statement.ts). */
  textRow?: boolean;
}

function slotKey(s: ParamSlot): string | null {
  switch (s.kind) {
    case 'session':
      return `s:${s.name}`;
    case 'session_object':
      return 'so';
    case 'variable':
      return `v:${JSON.stringify([s.name, s.path, s.pgType, s.defaultValue ?? null])}`;
    case 'const':
      return typeof s.value === 'string' ? `c:${s.value}` : null;
  }
}

/**
 * Renders a node to text with `$1..$n` (or, for display, what `render` gives for slot n); equal session variables, variable paths and string constants share a slot.
 */
export function compile(n: SQL, render?: (index: number) => string): CompiledSql {
  const slots: ParamSlot[] = [];
  const seen = new Map<string, number>();
  let text = '';
  n.items.forEach((it, i) => {
    if (it.t === 'raw') {
      text += it.s;
      return;
    }
    // Postgres gives a parameter one type (from its first use): a shared slot must also share the cast written
    // after it, or `$1::float4 ... $1::money` fails ("cannot cast type real to money").
    const base = slotKey(it.slot);
    const key = base === null ? null : `${castAfter(n.items[i + 1])}|${base}`;
    let idx = key === null ? undefined : seen.get(key);
    if (idx === undefined) {
      slots.push(it.slot);
      idx = slots.length;
      if (key !== null) seen.set(key, idx);
    }
    text += render ? render(idx) : `$${idx}`;
  });
  return { text, slots };
}

/** The `::type` cast that directly follows a parameter, if any. */
function castAfter(next: Item | undefined): string {
  if (!next || next.t !== 'raw' || !next.s.startsWith('::')) return '';
  const name = '(?:"(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)';
  return new RegExp(`^::(${name}(?:\\.${name})?(?:\\[\\])?)`).exec(next.s)?.[1] ?? next.s;
}

/** SQL text of a literal for display (explain): quotes doubled, NULL for null, arrays/objects as their text. */
export function displayLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `'${s.replace(/'/g, "''")}'`;
}

