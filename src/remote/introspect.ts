// Remote schemas: resolves a definition against the environment (url_from_env, header values, {{VAR}} templates)
// and runs the introspection query against the remote, with the original's remote-schema-error messages.
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { EngineError } from '../core/errors.js';
import { introspectionError } from './validate.js';
import type { Env } from '../core/env.js';

export interface RemoteSchemaDefinition {
  url?: string;
  url_from_env?: string;
  timeout_seconds?: number;
  forward_client_headers?: boolean;
  headers?: Array<{ name: string; value: string } | { name: string; value_from_env: string }>;
}

const envNotSet = (v: string) => `environment variable '${v}' not set`;

/** `{{VAR}}` in a URL replaced from the environment (the original's WebhookURL templating). */
export function renderTemplate(url: string, env: Env): string {
  return url.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (_, v: string) => {
    const value = env[v];
    if (value === undefined) throw new EngineError('unexpected', envNotSet(v), { path: '$.args' });
    return value;
  });
}

export interface ResolvedRemote {
  url: string;
  headers: Record<string, string>;
  timeoutSeconds: number;
  forwardClientHeaders: boolean;
}

/** The URL and headers to use, or the original's errors for unset variables and bad URIs. */
export function resolveRemote(def: RemoteSchemaDefinition, env: Env): ResolvedRemote {
  let url: string;
  if (def.url_from_env !== undefined) {
    const v = env[def.url_from_env];
    if (v === undefined) throw new EngineError('not-found', envNotSet(def.url_from_env), { path: '$.args' });
    url = v;
  } else url = renderTemplate(def.url ?? '', env);
  try {
    new URL(url);
  } catch {
    throw new EngineError('invalid-params', `not a valid URI: ${url}`, { path: '$.args' });
  }
  const headers: Record<string, string> = {};
  for (const h of def.headers ?? []) {
    if ('value' in h) headers[h.name] = h.value;
    else {
      const v = env[h.value_from_env];
      if (v === undefined) throw new EngineError('not-found', envNotSet(h.value_from_env), { path: '$.args' });
      headers[h.name] = v;
    }
  }
  return { url, headers, timeoutSeconds: def.timeout_seconds ?? 60, forwardClientHeaders: def.forward_client_headers === true };
}

const remoteError = (message: string, internal?: unknown) =>
  new EngineError('remote-schema-error', message, { path: '$.args', ...(internal !== undefined ? { internal } : {}) });

/** POSTs the introspection query; any HTTP failure, non-200 answer or unusable result is a remote-schema-error. */
export async function introspectRemote(remote: ResolvedRemote): Promise<GraphQLSchema> {
  let res: Response;
  try {
    res = await fetch(remote.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'engine', ...remote.headers },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
      signal: AbortSignal.timeout(remote.timeoutSeconds * 1000),
    });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw remoteError(`HTTP exception occurred while sending the request to ${remote.url}`, {
      type: 'http_exception',
      message: cause?.code ?? cause?.message ?? (e as Error).message,
    });
  }
  const text = await res.text().catch(() => '');
  if (res.status !== 200) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: reported as text
    }
    throw remoteError(`introspection query to ${remote.url} has responded with ${res.status} status code`, { response: body });
  }
  let data: IntrospectionQuery;
  try {
    const json = JSON.parse(text) as { data?: IntrospectionQuery };
    if (!json || typeof json !== 'object' || !json.data || typeof json.data !== 'object') throw new Error('key "data" not found');
    data = json.data;
  } catch (e) {
    throw remoteError(`Error in $: ${(e as Error).message}`);
  }
  const invalid = introspectionError(data);
  if (invalid !== null) throw remoteError(invalid);
  try {
    return buildClientSchema(data);
  } catch (e) {
    throw remoteError(`Error in $: ${(e as Error).message}`);
  }
}
