// Requests that select remote-schema root fields. When every root field is a remote's (written directly, no root
// fragments), the request body is POSTed to it as sent and its answer returned as received, as the original does.
// Unlike the original (Note [Mixed requests]), a request may also mix servers: it is split by server
// (split.ts), the database part runs as the engine's usual single statement and the remote parts in parallel
// (one after another for mutations, in request order), and `data` is assembled in the request's field order.
// Where a request goes (nowhere, one remote, or which parts) depends only on the state, the role, the query text
// and the operation name, so it is kept per state like a query plan: table queries on a state with remote schemas
// and repeated remote requests skip parsing and splitting.
import { parse, type DocumentNode } from 'graphql';
import { EngineError, graphqlErrorObject } from '../core/errors.js';
import type { EngineState } from '../cache/state.js';
import type { GraphQLRequest } from '../graphql/request-body.js';
import { roleSchema } from '../graphql/schema/build.js';
import type { Answer, RemoteContext } from '../execute/features.js';
import { pickOperation } from '../graphql/request/operation.js';
import type { RemoteSchemaMeta } from '../../events/remote-schemas.js';
import { remoteHeaders } from './headers.js';
import { postToRemote, type RemoteReply } from './http.js';
import { resolveRemote } from './introspect.js';
import { objectMembers } from './json-members.js';
import { pickVariables, rootOwners, splitOperation, type Owner, type Part } from './split.js';
import { Lru } from '../core/lru.js';
import { introspected } from './introspections.js';
import { MUTATION_ROOT, QUERY_ROOT } from './merge.js';

/** Where a request goes; `parts` hold the texts to send, their variables are picked per request. */
type Route =
  | { kind: 'none' }
  | { kind: 'subscription' }
  | { kind: 'forward'; remote: string }
  | { kind: 'split'; parts: Part[]; order: string[]; sequential: boolean };

const NONE: Route = { kind: 'none' };
const routeCaches = new WeakMap<EngineState, Lru<Route>>();

function routeOf(ctx: RemoteContext, req: GraphQLRequest): Route {
  const rs = roleSchema(ctx.state, ctx.session.role, ctx.extensions);
  if (!rs.remote || (rs.remote.query.size === 0 && rs.remote.mutation.size === 0)) return NONE;
  let cache = routeCaches.get(ctx.state);
  if (cache === undefined && ctx.cacheSize > 0) routeCaches.set(ctx.state, (cache = new Lru<Route>(ctx.cacheSize, null)));
  const key = `${ctx.session.role}\0${req.operationName ?? ''}\0${req.query}`;
  let route = cache?.get(key);
  if (route === undefined) {
    route = computeRoute(ctx, req, rs.remote);
    cache?.set(key, route);
  }
  return route;
}

function computeRoute(ctx: RemoteContext, req: GraphQLRequest, remote: NonNullable<ReturnType<typeof roleSchema>['remote']>): Route {
  let doc: DocumentNode;
  let op;
  try {
    doc = parse(req.query);
    op = pickOperation(doc, req.operationName);
  } catch {
    return NONE; // the usual path reports it
  }
  const routes = op.operation === 'mutation' ? remote.mutation : remote.query;
  const owner = (name: string): Owner => routes.get(name) ?? null;
  const rootName = op.operation === 'mutation' ? MUTATION_ROOT : op.operation === 'subscription' ? 'subscription_root' : QUERY_ROOT;
  const { owners, direct } = rootOwners({ doc, op, rootName, owner });
  if (owners.every((o) => o === null)) return NONE;
  if (op.operation === 'subscription') return { kind: 'subscription' };
  if (owners.length === 1 && direct) return { kind: 'forward', remote: owners[0]! };
  const remotes = ctx.state.metadata.remote_schemas;
  const split = splitOperation({
    doc, op, rootName, owner, variables: null,
    remoteRoot: (name) => {
      const r = introspected(ctx.state.remoteSchemas, remoteOf(remotes, name));
      const t = r.ok ? (op.operation === 'mutation' ? r.schema.getMutationType() : r.schema.getQueryType()) : null;
      return t?.name ?? rootName;
    },
  });
  return { kind: 'split', parts: split.parts, order: split.order, sequential: op.operation === 'mutation' };
}

/**
 * The answer of a request that selects remote fields, or null when it selects none (or cannot even be parsed:
 * the usual path reports that). `raw` is the request object as the client sent it. Throws EngineError before
 * execution (a subscription); a remote's failure is an errors body.
 */
export function remoteAnswer(ctx: RemoteContext, req: GraphQLRequest, raw: unknown, db: Answer): Promise<string> | null {
  const route = routeOf(ctx, req);
  switch (route.kind) {
    case 'none':
      return null;
    case 'subscription':
      // Thrown: a pre-execution error (HTTP answers it as an errors body, a websocket with an `error` message).
      throw new EngineError('not-supported', 'subscription to remote server is not supported');
    case 'forward':
      return forward(ctx, remoteOf(ctx.state.metadata.remote_schemas, route.remote), JSON.stringify(raw));
    case 'split': {
      const parts = route.parts.map((p) => ({ ...p, variables: pickVariables(req.variables, p.variableNames) }));
      return mixed(ctx, parts, route.order, route.sequential, ctx.state.metadata.remote_schemas, db);
    }
  }
}

const remoteOf = (remotes: RemoteSchemaMeta[], name: string): RemoteSchemaMeta => {
  const r = remotes.find((x) => x.name === name);
  if (!r) throw new Error(`remote schema ${name} is not in the metadata`);
  return r;
};

const errorObject = (ctx: RemoteContext, e: unknown): string => {
  const err = e instanceof EngineError ? e : new EngineError('unexpected', 'an unexpected error occurred', { status: 500 });
  return JSON.stringify(graphqlErrorObject(err, ctx.showInternal));
};
const errorBody = (ctx: RemoteContext, e: unknown): string => `{"errors":[${errorObject(ctx, e)}]}`;

async function post(ctx: RemoteContext, rs: RemoteSchemaMeta, body: string): Promise<RemoteReply> {
  const r = resolveRemote(rs.definition, process.env);
  const headers = remoteHeaders({ configured: r.headers, session: ctx.session.variables, client: r.forwardClientHeaders ? ctx.headers : null });
  const reply = await postToRemote(r.url, headers, body, r.timeoutSeconds);
  ctx.setCookie.push(...reply.setCookie);
  return reply;
}

/** The whole request to one remote: its answer as received. */
async function forward(ctx: RemoteContext, rs: RemoteSchemaMeta, body: string): Promise<string> {
  try {
    return (await post(ctx, rs, body)).body;
  } catch (e) {
    return errorBody(ctx, e);
  }
}

interface PartResult {
  /** Root fields' JSON texts by response key (absent: the part failed as a whole). */
  data: Map<string, string> | null;
  /** Error objects' JSON texts. */
  errors: string[];
}

/** A body text `{"data":..., "errors":[...]}` read into a PartResult without re-encoding the data values. */
function readBody(text: string): PartResult {
  let parsed: { errors?: unknown };
  try {
    parsed = JSON.parse(text) as { errors?: unknown };
  } catch {
    return { data: null, errors: [JSON.stringify({ message: 'invalid JSON from a remote schema', extensions: { path: '$', code: 'unexpected' } })] };
  }
  const members = objectMembers(text);
  const dataText = members?.get('data');
  const data = dataText && dataText !== 'null' ? objectMembers(dataText) : null;
  const errors = Array.isArray(parsed.errors) ? parsed.errors.map((e) => JSON.stringify(e)) : [];
  return { data, errors };
}

async function runPart(ctx: RemoteContext, part: Part, remotes: RemoteSchemaMeta[], db: Answer, operationName: string | null): Promise<PartResult> {
  const req: GraphQLRequest = { query: part.query, variables: part.variables, operationName };
  if (part.owner === null) return readBody(await db(req));
  try {
    const reply = await post(ctx, remoteOf(remotes, part.owner), JSON.stringify(req));
    return readBody(reply.body);
  } catch (e) {
    return { data: null, errors: [errorObject(ctx, e)] };
  }
}

// Note [Mixed requests]
// The original refuses a request whose root fields come from two servers ("cannot mix top level fields from two
// different graphql servers"). Here each server gets its own part and the answers are merged: `data` holds the
// root fields in request order (a part that failed as a whole contributes nulls), `errors` every part's errors in
// request order; a remote's error paths start at the response key, which the parts keep.
async function mixed(
  ctx: RemoteContext, parts: Part[], order: string[], sequential: boolean, remotes: RemoteSchemaMeta[], db: Answer,
): Promise<string> {
  const operationName = null;
  let results: PartResult[];
  if (sequential) {
    results = [];
    for (const p of parts) results.push(await runPart(ctx, p, remotes, db, operationName));
  } else {
    results = await Promise.all(parts.map((p) => runPart(ctx, p, remotes, db, operationName)));
  }
  const members: string[] = [];
  for (const key of order) {
    let value: string | undefined;
    let failed = false;
    for (const r of results) {
      const v = r.data?.get(key);
      if (v !== undefined) value = v;
    }
    if (value === undefined) failed = results.some((r) => r.data === null);
    if (value !== undefined || failed) members.push(`${JSON.stringify(key)}:${value ?? 'null'}`);
  }
  const errors = results.flatMap((r) => r.errors);
  return `{"data":{${members.join(',')}}${errors.length ? `,"errors":[${errors.join(',')}]` : ''}}`;
}
