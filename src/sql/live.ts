// Live queries (subscriptions), multiplexed: one statement answers a whole batch of subscribers that share a query
// shape, each with its own parameter values (GraphQL variables, session variables) — SPEC-NOTES-runtime §2.4.
//   SELECT "_subs"."id", ("_fld"."root")::text FROM unnest($1::text[], $2::json[]) AS "_subs" ("id", "vars")
//   LEFT JOIN LATERAL (SELECT json_build_object('<field>', (<field query>)) AS "root") AS "_fld" ON true
// Every parameter slot of the field queries reads the subscriber's value: `("_subs"."vars"->>i)`, then the same
// `::type` cast a plain statement puts after `$n`. Subscribers' values come from resolveParams (so they are already
// the text Postgres parses), as one JSON array per subscriber.
import type { OperationIR } from '../ir/operation.js';
import { compile, join, literal, sql, type ParamSlot, type SQL } from './builder.js';
import { CompileContext } from './context.js';
import { compileRootField } from './operation.js';
import { resolveParams, type ParamSource } from './params.js';

export interface LiveQueryPlan {
  /** Parameters: $1 subscriber ids (text[]), $2 their parameter arrays (json[]). Rows: [id, data JSON text]. */
  text: string;
  /** The slots each subscriber's parameter array holds, in order. */
  slots: ParamSlot[];
}

export function compileLiveQuery(op: OperationIR): LiveQueryPlan {
  const ctx = new CompileContext();
  const pairs: SQL[] = op.fields.map(([key, f]) => {
    if (f.kind === 'typename') return sql`${literal(key)}, ${literal(f.name)}::text`;
    if (f.kind === 'raw') return sql`${literal(key)}, ${literal(f.json)}::json`;
    return sql`${literal(key)}, (${compileRootField(f, ctx)!})`;
  });
  const data = pairs.length === 0 ? sql`'{}'::json` : sql`json_build_object(${join(pairs, ', ')})`;
  const q = sql`SELECT "_subs"."id", ("_fld"."root")::text AS "result" FROM unnest($1::text[], $2::json[]) AS "_subs" ("id", "vars") LEFT JOIN LATERAL (SELECT ${data} AS "root") AS "_fld" ON true`;
  const { slots } = compile(q);
  return { text: compile(q, (i) => `("_subs"."vars"->>${i - 1})`).text, slots };
}

/** The statement's two parameters for a batch of subscribers. */
export function liveQueryParams(plan: LiveQueryPlan, subscribers: ReadonlyArray<{ id: string; source: ParamSource }>): [string[], string[]] {
  return [subscribers.map((s) => s.id), subscribers.map((s) => JSON.stringify(resolveParams(plan.slots, s.source)))];
}
