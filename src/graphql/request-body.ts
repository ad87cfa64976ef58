// The GraphQL request body: {query, operationName?, variables?} or a batch (array) of them. Shape errors are
// `parse-failed` with the original's (aeson-style) messages and paths.
import { EngineError } from '../core/errors.js';
import { formatPath, type PathSegment } from '../core/json-path.js';
import { jsonKind } from '../core/json-kind.js';

export interface GraphQLRequest {
  query: string;
  operationName: string | null;
  variables: Record<string, unknown> | null;
}

const fail = (path: PathSegment[], message: string): EngineError => new EngineError('parse-failed', message, { path: formatPath(path) });

/** One request object (at `base` inside a batch). */
export function parseRequest(v: unknown, base: PathSegment[] = []): GraphQLRequest {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw fail(base, `expected Object, encountered ${jsonKind(v)}`);
  const o = v as Record<string, unknown>;
  if (!('query' in o)) throw fail(base, 'key "query" not found');
  if (typeof o.query !== 'string') throw fail([...base, 'query'], `expected String, encountered ${jsonKind(o.query)}`);
  const name = o.operationName;
  if (name !== undefined && name !== null && typeof name !== 'string') throw fail([...base, 'operationName'], `expected String, encountered ${jsonKind(name)}`);
  const vars = o.variables;
  if (vars !== undefined && vars !== null && (typeof vars !== 'object' || Array.isArray(vars)))
    throw fail([...base, 'variables'], `expected HashMap ~Text v, encountered ${jsonKind(vars)}`);
  return { query: o.query, operationName: (name as string | null | undefined) ?? null, variables: (vars as Record<string, unknown> | null | undefined) ?? null };
}

/** A single request or a batch; like the original, one malformed element fails the whole body. */
export type ParsedBody = { batch: false; request: GraphQLRequest } | { batch: true; requests: GraphQLRequest[] };

export function parseBody(body: unknown): ParsedBody {
  if (Array.isArray(body)) return { batch: true, requests: body.map((e, i) => parseRequest(e, [i])) };
  return { batch: false, request: parseRequest(body) };
}
