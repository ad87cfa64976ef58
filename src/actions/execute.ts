// Runs an action root field, which the executor hands here (ExecutorFeatures.runAction, wired in src/features.ts): a
// sync call (handler, then the output shaped in Node, or by ONE SQL statement when it selects relationships), an
// async enqueue (one INSERT), or `<action>(id:)` (one SELECT). Returns the field's JSON text.
import type { ActionOutputIR, ActionRootIR, InputTemplate } from '../ir/action.js';
import type { CompiledSql } from '../sql/builder.js';
import { ACTION_ID, ACTION_RESPONSE, compileActionOutput, compileActionStatus } from '../sql/action.js';
import { resolveParams } from '../sql/params.js';
import { valueAt } from '../core/json-path.js';
import { mapExecutionError } from '../core/pg-errors.js';
import type { ActionEnv } from '../execute/features.js';
import { callHandler } from './call.js';
import { enqueueAction } from './log.js';

/** The JSON of an input template; a variable missing from the request leaves its field out (as GraphQL does). */
export function renderInput(tpl: InputTemplate, env: Pick<ActionEnv, 'variables' | 'rawVariables'>): unknown {
  switch (tpl.kind) {
    case 'json': return tpl.value;
    case 'list': return tpl.items.map((x) => renderInput(x, env)).map((x) => (x === undefined ? null : x));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of tpl.fields) {
        const x = renderInput(v, env);
        if (x !== undefined) out[k] = x;
      }
      return out;
    }
    case 'variable': {
      const raw = env.rawVariables ?? {};
      if (Object.prototype.hasOwnProperty.call(raw, tpl.name)) return valueAt(raw[tpl.name], tpl.path);
      return Object.prototype.hasOwnProperty.call(env.variables, tpl.name) ? valueAt(env.variables[tpl.name], tpl.path) : undefined;
    }
  }
}

const renderArgs = (input: Array<[string, InputTemplate]>, env: ActionEnv): Record<string, unknown> =>
  renderInput({ kind: 'object', fields: input }, env) as Record<string, unknown>;

// Compiled statements per IR object: the IR lives as long as its cached plan.
const compiled = new WeakMap<object, CompiledSql>();
function memo(key: object, make: () => CompiledSql): CompiledSql {
  let c = compiled.get(key);
  if (!c) {
    c = make();
    compiled.set(key, c);
  }
  return c;
}

async function queryOne(env: ActionEnv, st: CompiledSql, variables: Record<string, unknown>): Promise<string | null> {
  const values = resolveParams(st.slots, { variables, sessionVariables: env.session.variables });
  try {
    const r = await env.db.query<unknown[]>({ text: st.text, values, rowMode: 'array' });
    return (r.rows[0]?.[0] as string | null | undefined) ?? null;
  } catch (e) {
    throw mapExecutionError(e, { text: st.text, values });
  }
}

/**
 * The `"key":` texts of an output selection that picks fields only, each key once (its JSON is written here without
 * making an object per handler object); null when it has a relationship or a key twice (the object path then).
 */
const fieldKeys = new WeakMap<ActionOutputIR, string[] | null>();
function keysOf(out: ActionOutputIR): string[] | null {
  let keys = fieldKeys.get(out);
  if (keys === undefined) {
    const names = out.fields.map(([key]) => key);
    // (`__proto__` as an alias: assigning it to an object sets no key, so the object path keeps that quirk.)
    keys = new Set(names).size === names.length && !names.includes('__proto__') && !out.fields.some(([, f]) => f.kind === 'relationship')
      ? names.map((k) => `${JSON.stringify(k)}:`)
      : null;
    fieldKeys.set(out, keys);
  }
  return keys;
}

/** One handler object as the selection asks: what JSON.stringify of the shaped object writes. */
function objectText(out: ActionOutputIR, keys: string[], o: Record<string, unknown>): string {
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const f = out.fields[i][1];
    const v = f.kind === 'typename' ? f.name : f.kind === 'field' ? (o[f.name] ?? null) : null;
    text += `${i ? ',' : ''}${keys[i]}${JSON.stringify(v)}`;
  }
  return `${text}}`;
}

/**
 * A handler's validated objects as the selection asks: in Node (at once) when no relationship is selected, else by
 * one SQL statement.
 */
function shapeOutput(env: ActionEnv, out: ActionOutputIR, value: unknown): string | Promise<string> {
  if (value === null) return 'null';
  const objects = (Array.isArray(value) ? value : [value]) as Array<Record<string, unknown>>;
  if (out.fields.some(([, f]) => f.kind === 'relationship')) {
    const st = memo(out, () => compileActionOutput(out, !out.list));
    return queryOne(env, st, { [ACTION_RESPONSE]: objects }).then((text) => text ?? 'null');
  }
  const keys = keysOf(out);
  if (keys !== null) {
    // A list as json_agg writes one (`[{...}, {...}]`), as the original's (and the relationship path's) SQL answers it.
    if (out.list) return `[${objects.map((o) => objectText(out, keys, o)).join(', ')}]`;
    return objects.length ? objectText(out, keys, objects[0]) : 'null';
  }
  const shaped = objects.map((o) => {
    const r: Record<string, unknown> = {};
    for (const [key, f] of out.fields) r[key] = f.kind === 'typename' ? f.name : f.kind === 'field' ? (o[f.name] ?? null) : null;
    return r;
  });
  return out.list ? `[${shaped.map((o) => JSON.stringify(o)).join(', ')}]` : JSON.stringify(shaped[0] ?? null);
}

/** A sync call: the handler, then its answer shaped (two callbacks; no async function around them). */
function callAction(env: ActionEnv, ir: Extract<ActionRootIR, { kind: 'action' }>): Promise<string> {
  let call: ReturnType<typeof callHandler>;
  try {
    call = callHandler(ir.call, renderArgs(ir.call.input, env), env.session.variables, env.clientHeaders, ir.output);
  } catch (e) {
    return Promise.reject(e);
  }
  return call.then((r) => {
    if (r.setCookie.length) env.setCookie.push(...r.setCookie);
    return shapeOutput(env, ir.output, r.value);
  });
}

/** An action root field's JSON text. Never throws: a failure is the promise's rejection. */
export function runActionRoot(env: ActionEnv, ir: ActionRootIR): Promise<string> {
  return ir.kind === 'action' ? callAction(env, ir) : runStoredAction(env, ir);
}

async function runStoredAction(env: ActionEnv, ir: Exclude<ActionRootIR, { kind: 'action' }>): Promise<string> {
  switch (ir.kind) {
    case 'action_enqueue': {
      const input = renderArgs(ir.call.input, env);
      // Only what forwarding can use is stored: x-engine-* headers (the admin secret...) never leave the engine.
      const headers = Object.fromEntries(Object.entries(env.clientHeaders ?? {}).filter(([k]) => !k.toLowerCase().startsWith('x-engine-')));
      const id = await enqueueAction(env.db, ir.call.name, input, env.session.variables, headers);
      return JSON.stringify(id);
    }
    case 'action_status': {
      const id = renderInput(ir.id, env);
      const st = memo(ir, () => compileActionStatus(ir));
      return (await queryOne(env, st, { [ACTION_ID]: id })) ?? 'null';
    }
  }
}
