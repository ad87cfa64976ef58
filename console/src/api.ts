// The console's one way to the engine: /v1/query and /v1/graphql on the same origin, with the admin secret kept in
// session storage only (never in a URL, never in local storage).
const SECRET_KEY = 'engine-console-admin-secret';

export const adminSecret = {
  get: (): string | null => sessionStorage.getItem(SECRET_KEY),
  set: (s: string): void => sessionStorage.setItem(SECRET_KEY, s),
  clear: (): void => sessionStorage.removeItem(SECRET_KEY),
};

/** A metadata API error body ({path, error, code, internal?}) with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly path: string,
    message: string,
    readonly internal?: unknown,
  ) {
    super(message);
  }
}

export function adminHeaders(): Record<string, string> {
  const s = adminSecret.get();
  return s ? { 'x-engine-admin-secret': s } : {};
}

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = { error: text, code: 'unexpected', path: '$' };
  }
  return { status: res.status, json };
}

/** POST /v1/query as admin; throws ApiError on a non-200 answer. */
export async function query<T = any>(body: unknown): Promise<T> {
  const { status, json } = await post('/v1/query', body, adminHeaders());
  if (status !== 200) throw new ApiError(status, json?.code ?? 'unexpected', json?.path ?? '$', json?.error ?? `HTTP ${status}`, json?.internal);
  return json as T;
}

export interface GraphQLResult<T = any> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { path?: string; code?: string } }>;
}

/** POST /v1/graphql with the given headers (admin by default). */
export async function graphql<T = any>(q: string, variables?: Record<string, unknown>, headers: Record<string, string> = adminHeaders()): Promise<GraphQLResult<T>> {
  const { json } = await post('/v1/graphql', { query: q, variables }, headers);
  return json as GraphQLResult<T>;
}

/** GraphQL as admin; throws the first error. */
export async function gqlData<T = any>(q: string, variables?: Record<string, unknown>): Promise<T> {
  const r = await graphql<T>(q, variables);
  if (r.errors?.length) {
    const e = r.errors[0];
    throw new ApiError(200, e.extensions?.code ?? 'unexpected', e.extensions?.path ?? '$', e.message);
  }
  return r.data as T;
}

export interface SqlResult {
  result_type: 'TuplesOk' | 'CommandOk';
  result: string[][] | null;
}

export const runSql = (sql: string, opts: { cascade?: boolean; read_only?: boolean } = {}): Promise<SqlResult> =>
  query<SqlResult>({ type: 'run_sql', args: { sql, ...opts } });

/** A read-only SQL statement returning one JSON cell (introspection: appends nothing to the metadata history). */
export async function sqlJson<T>(sql: string): Promise<T> {
  const r = await runSql(sql, { read_only: true });
  return JSON.parse(r.result?.[1]?.[0] ?? 'null') as T;
}

export const errorText = (e: unknown): string =>
  e instanceof ApiError ? `${e.message}${e.path && e.path !== '$' ? ` (at ${e.path})` : ''}` : e instanceof Error ? e.message : String(e);
