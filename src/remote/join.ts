// Running remote joins: the database answered with each remote relationship field holding its row's join values
// (src/sql/select.ts); here they are replaced by the remote's answers. Unlike the original, which sends one aliased
// field per row, every join site of the request is gathered first and each remote gets ONE request carrying one
// field per DISTINCT set of join values (100 rows with 10 distinct keys: 10 fields); the answers are spliced back
// into every row that asked for them. The client's arguments are merged into the template's, as the original does.
import { EngineError } from '../core/errors.js';
import type { RemoteJoinEnv } from '../execute/features.js';
import type { RootFieldIR } from '../ir/operation.js';
import type { AggregateFieldIR, FieldIR, RemoteJoinIR } from '../ir/types.js';
import type { MutationOutputIR } from '../ir/mutation.js';
import type { RemoteSchemaMeta } from '../../events/remote-schemas.js';
import { remoteHeaders } from './headers.js';
import { postToRemote } from './http.js';
import { resolveRemote } from './introspect.js';
import { clientPart, joinFieldPrinter, joinQuery, type ClientPart } from './join-query.js';
import { parseLossless, stringifyLossless } from './json-lossless.js';

type Json = unknown;
type Row = Record<string, Json>;
type Fields = ReadonlyArray<readonly [string, FieldIR]>;

/** Whether an operation's root fields select any remote relationship (the plan then runs the joins). */
export function hasRemoteJoins(fields: ReadonlyArray<readonly [string, RootFieldIR]>): boolean {
  let found = false;
  const visit = (fs: Fields) => {
    for (const [, f] of fs) {
      if (found) return;
      if (f.kind === 'remote_join') found = true;
      else forEachNested(f, (_k, sub) => visit(sub));
    }
  };
  for (const [, r] of fields) rootNested(r, (sub) => visit(sub));
  return found;
}

/** The field lists under a field (relationships, computed tables, aggregate nodes), with their JSON shape. */
function forEachNested(f: FieldIR, fn: (kind: 'rows' | 'aggregate', fields: Fields, agg?: ReadonlyArray<readonly [string, AggregateFieldIR]>) => void): void {
  switch (f.kind) {
    case 'object_relationship':
    case 'array_relationship':
    case 'computed_table':
      fn('rows', f.select.fields);
      return;
    case 'array_aggregate':
      for (const [, a] of f.aggregate.fields) if (a.kind === 'nodes') fn('aggregate', a.fields, f.aggregate.fields);
      return;
    default:
  }
}

function outputNested(o: MutationOutputIR, fn: (fields: Fields) => void): void {
  if (o.kind === 'single') fn(o.fields);
  else for (const [, f] of o.fields) if (f.kind === 'returning') fn(f.fields);
}

function rootNested(r: RootFieldIR, fn: (fields: Fields) => void): void {
  switch (r.kind) {
    case 'select':
    case 'select_one':
      fn(r.select.fields);
      return;
    case 'aggregate':
      for (const [, a] of r.aggregate.fields) if (a.kind === 'nodes') fn(a.fields);
      return;
    case 'mutation':
      outputNested(r.mutation.output, fn);
      return;
    case 'action_root':
      if (r.action.kind === 'action') for (const [, f] of r.action.output.fields) if (f.kind === 'relationship') fn(f.select.fields);
      return;
    default:
  }
}

/** One place a remote join's answer goes: `holder[key]`, the row's join values being what it holds now. */
interface Site {
  holder: Row;
  key: string;
}

/** Every site of every join, by join (the IR node: one per field of the request). */
class Sites {
  readonly byJoin = new Map<RemoteJoinIR, { key: string; sites: Site[] }>();

  rows(value: Json, fields: Fields): void {
    if (Array.isArray(value)) for (const v of value) this.row(v, fields);
    else this.row(value, fields);
  }

  private row(value: Json, fields: Fields): void {
    if (value === null || typeof value !== 'object') return;
    const row = value as Row;
    for (const [key, f] of fields) {
      if (f.kind === 'remote_join') {
        let entry = this.byJoin.get(f.join);
        if (!entry) this.byJoin.set(f.join, (entry = { key, sites: [] }));
        entry.sites.push({ holder: row, key });
        continue;
      }
      forEachNested(f, (kind, sub, agg) => {
        if (kind === 'rows') this.rows(row[key], sub);
        else {
          const a = row[key] as Row | null;
          for (const [k, af] of agg ?? []) if (af.kind === 'nodes' && a) this.rows(a[k], sub);
        }
      });
    }
  }

  root(value: Json, r: RootFieldIR): void {
    if (value === null || typeof value !== 'object') return;
    switch (r.kind) {
      case 'select':
      case 'select_one':
        this.rows(value, r.select.fields);
        return;
      case 'aggregate':
        for (const [k, a] of r.aggregate.fields) if (a.kind === 'nodes') this.rows((value as Row)[k], a.fields);
        return;
      case 'mutation': {
        const o = r.mutation.output;
        if (o.kind === 'single') this.rows(value, o.fields);
        else for (const [k, f] of o.fields) if (f.kind === 'returning') this.rows((value as Row)[k], f.fields);
        return;
      }
      case 'action_root': {
        // An action's output objects (one or a list): its relationships to tables hold rows.
        if (r.action.kind !== 'action') return;
        const rels = r.action.output.fields;
        for (const obj of Array.isArray(value) ? value : [value]) {
          if (obj === null || typeof obj !== 'object') continue;
          for (const [k, f] of rels) if (f.kind === 'relationship') this.rows((obj as Row)[k], f.select.fields);
        }
        return;
      }
      default:
    }
  }
}

/** One join's distinct sets of join values, each with its alias in the remote query and the sites it answers. */
interface Batch {
  join: RemoteJoinIR;
  distinct: Map<string, { alias: string; values: Row; sites: Site[] }>;
}

/**
 * The client's part of a join, parsed once per join of a plan when it uses no variable (the IR node is the plan's,
 * so a cached plan parses it once).
 */
const clientParts = new WeakMap<RemoteJoinIR, ClientPart>();
function cachedClientPart(join: RemoteJoinIR, variables: Record<string, unknown>): ClientPart {
  const usesVariables = join.clientArguments.includes('$') || join.selectionSet.includes('$');
  if (usesVariables) return clientPart(join.clientArguments, join.selectionSet, variables);
  let part = clientParts.get(join);
  if (!part) clientParts.set(join, (part = clientPart(join.clientArguments, join.selectionSet, {})));
  return part;
}

/** A distinct set of join values as a map key (one column, the common case: its value with its type). */
function valuesKey(columns: readonly string[], values: Row): string {
  const v = columns.length === 1 ? values[columns[0]] : undefined;
  if (columns.length === 1 && (typeof v !== 'object' || v === null)) return `${typeof v}:${String(v)}`;
  return JSON.stringify(columns.map((c) => values[c] ?? null));
}

const remoteFailure = (errors: unknown): EngineError => new EngineError('unexpected', 'Errors from remote server', { status: 200, internal: { errors } });

/** Picks the leaf's value out of a top-level field's answer (a nested template answers through its levels). */
function leafValue(v: Json, path: RemoteJoinIR['path']): Json {
  let cur = v;
  for (let i = 1; i < path.length; i += 1) {
    const name = path[i].name;
    const step = (x: Json): Json => (x === null || typeof x !== 'object' ? null : Array.isArray(x) ? x.map(step) : (x as Row)[name] ?? null);
    cur = step(cur);
  }
  return cur;
}

/** Asks one remote for its batches and fills their sites; true when its answer held integers beyond 2^53. */
async function askRemote(env: RemoteJoinEnv, rs: RemoteSchemaMeta, batches: Batch[]): Promise<boolean> {
  const fields: string[] = [];
  for (const b of batches) {
    const print = joinFieldPrinter(b.join.path, cachedClientPart(b.join, env.variables ?? {}));
    for (const d of b.distinct.values()) fields.push(print(d.alias, d.values));
  }
  const r = resolveRemote(rs.definition, process.env);
  const headers = remoteHeaders({ configured: r.headers, session: env.session.variables, client: r.forwardClientHeaders ? env.clientHeaders ?? {} : null });
  const reply = await postToRemote(r.url, headers, JSON.stringify({ query: joinQuery(fields) }), r.timeoutSeconds);
  env.setCookie.push(...reply.setCookie);
  let body: { data?: Record<string, Json> | null; errors?: unknown };
  let big: boolean;
  try {
    const parsed = parseLossless(reply.body);
    body = parsed.value as typeof body;
    big = parsed.big;
  } catch {
    throw new EngineError('unexpected', 'Invalid response from remote server', { status: 200, internal: { response: reply.body.slice(0, 1000) } });
  }
  if (body === null || typeof body !== 'object') throw new EngineError('unexpected', 'Invalid response from remote server', { status: 200 });
  if (Array.isArray(body.errors) && body.errors.length) throw remoteFailure(body.errors);
  const data = body.data;
  if (data === null || typeof data !== 'object') throw new EngineError('unexpected', "\"data\" field not found in remote response", { status: 200 });
  for (const b of batches) {
    for (const d of b.distinct.values()) {
      const value = leafValue(data[d.alias] ?? null, b.join.path);
      for (const s of d.sites) s.holder[s.key] = value;
    }
  }
  return big;
}

/**
 * The data object's text with every remote join answered: one request per remote schema (all in parallel). A remote
 * answering with errors fails the request with the original's "Errors from remote server" (its errors as `internal`).
 */
export async function runRemoteJoins(env: RemoteJoinEnv, roots: ReadonlyArray<readonly [string, RootFieldIR]>, dataText: string): Promise<string> {
  const parsed = parseLossless(dataText);
  const data = parsed.value as Row;
  const sites = new Sites();
  for (const [key, r] of roots) sites.root(data[key], r);
  const byRemote = new Map<string, Batch[]>();
  const aliases = new Map<string, Set<string>>();
  for (const [join, entry] of sites.byJoin) {
    // Aliases `<field>__<n>` as the original's; a second join site with the same response key gets its own base.
    const used = aliases.get(join.remoteSchema) ?? new Set<string>();
    aliases.set(join.remoteSchema, used);
    let base = entry.key;
    for (let i = 2; used.has(base); i += 1) base = `${entry.key}_${i}`;
    used.add(base);
    const batch: Batch = { join, distinct: new Map() };
    for (const s of entry.sites) {
      const values = s.holder[s.key] as Row | null;
      if (values === null || typeof values !== 'object') continue;
      const k = valuesKey(join.columns, values);
      let d = batch.distinct.get(k);
      if (!d) batch.distinct.set(k, (d = { alias: `${base}__${batch.distinct.size}`, values, sites: [] }));
      d.sites.push(s);
    }
    if (batch.distinct.size === 0) continue;
    const list = byRemote.get(join.remoteSchema) ?? [];
    list.push(batch);
    byRemote.set(join.remoteSchema, list);
  }
  if (byRemote.size === 0) return dataText;
  const bigAnswers = await Promise.all([...byRemote].map(([name, batches]) => {
    const rs = env.remoteSchemas.find((r) => r.name === name);
    if (!rs) throw new EngineError('unexpected', `remote schema with name "${name}" not found`, { status: 200 });
    return askRemote(env, rs, batches);
  }));
  return parsed.big || bigAnswers.some(Boolean) ? stringifyLossless(data) : JSON.stringify(data);
}
