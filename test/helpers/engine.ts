// Starts an engine in-process on a fresh test database (or a given one) for integration tests.
// Usage: const e = await startTestEngine(); await e.query({type, args}); ... test.after.always(() => e.close()).
import { createTestDatabase, type TestDatabase } from './db.js';
import { makeConfig, type ServerConfig } from '../../src/config/config.js';
import { startEngine, type RunningEngine } from '../../src/main.js';
import { configureLog } from '../../src/core/log.js';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text. */
  body: T;
  text: string;
}

export interface TestEngine {
  url: string;
  db: TestDatabase;
  engine: RunningEngine;
  config: ServerConfig;
  /** POST /v1/query (admin unless headers say otherwise). */
  query<T = any>(body: unknown, headers?: Record<string, string>): Promise<HttpResult<T>>;
  /** POST /v1/graphql. */
  graphql<T = any>(body: unknown, headers?: Record<string, string>): Promise<HttpResult<T>>;
  /** Any request: post(path, body) / get(path). */
  post<T = any>(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpResult<T>>;
  get<T = any>(path: string, headers?: Record<string, string>): Promise<HttpResult<T>>;
  /** Metadata seq this instance has folded. */
  seq(): number;
  /** Stops the engine; drops the database unless it was passed in (`keepDatabase`). */
  close(): Promise<void>;
}

export interface TestEngineOptions extends Partial<ServerConfig> {
  /** Use this database instead of creating one (not dropped by close()). */
  database?: TestDatabase;
  /** Forwarded to startEngine (default 'silent'; set ENGINE_TEST_LOG=debug to see logs). */
  logLevel?: ServerConfig['logLevel'];
  /** Receives every log line (at info level) instead of stdout. */
  logSink?: (line: string) => void;
  /** Websocket keep-alive timings (shortened by the dead-peer tests) and the open-socket bound (capacity tests). */
  websocket?: { kaIntervalMs?: number; pingIntervalMs?: number; maxConnections?: number };
}

/** POST /v1/query expecting 200 (set-up steps): the body, or an error naming the request and the answer. */
export async function queryOk<T = any>(e: TestEngine, body: unknown, headers?: Record<string, string>): Promise<T> {
  const r = await e.query<T>(body, headers);
  if (r.status !== 200) throw new Error(`${JSON.stringify(body).slice(0, 200)} -> ${r.status} ${r.text}`);
  return r.body;
}

export async function request<T = any>(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export async function startTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const { database, logSink, websocket, ...overrides } = options;
  const db = database ?? (await createTestDatabase('e'));
  const config = makeConfig({ host: '127.0.0.1', port: 0, pgConnections: 10, ...overrides, databaseUrl: db.url });
  let engine: RunningEngine;
  try {
    if (logSink) configureLog('info', logSink, config.enabledLogTypes);
    engine = logSink
      ? await startEngine(config, { keepLogger: true, websocket })
      : await startEngine(config, { logLevel: (process.env.ENGINE_TEST_LOG as ServerConfig['logLevel']) ?? 'silent', websocket });
  } catch (e) {
    if (!database) await db.drop();
    throw e;
  }
  const url = engine.url;
  return {
    url,
    db,
    engine,
    config,
    query: (body, headers) => request(`${url}/v1/query`, 'POST', body, headers),
    graphql: (body, headers) => request(`${url}/v1/graphql`, 'POST', body, headers),
    post: (path, body, headers) => request(`${url}${path}`, 'POST', body, headers),
    get: (path, headers) => request(`${url}${path}`, 'GET', undefined, headers),
    seq: () => engine.runtime.store.seq,
    async close() {
      await engine.close();
      if (!database) await db.drop();
    },
  };
}

export interface ChildEngine {
  url: string;
  pid: number;
  /** ms from spawn to "engine ready" in its log. */
  readyMs: number;
  /** Lines the child wrote so far. */
  output: string[];
  /** SIGTERM and wait for exit. */
  stop(): Promise<void>;
  /** SIGKILL (no clean-up at all) and wait for exit. */
  kill(): Promise<void>;
}

/**
 * Runs `node bin/engine.mjs serve` (or another entry module: `bin`) as a child process on a free port; resolves once it logs that it is ready. The
 * deadline is past the engine's own 30 s start-up budget (it retries the database until then), so it only catches a hang.
 */
export async function spawnEngine(
  databaseUrl: string, env: Record<string, string> = {}, timeoutMs = 90_000, bin = new URL('../../bin/engine.mjs', import.meta.url).pathname,
): Promise<ChildEngine> {
  const { spawn } = await import('node:child_process');
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: {
      ...process.env,
      ENGINE_GRAPHQL_DATABASE_URL: databaseUrl,
      ENGINE_GRAPHQL_SERVER_HOST: '127.0.0.1',
      ENGINE_GRAPHQL_SERVER_PORT: '0',
      ENGINE_GRAPHQL_PG_CONNECTIONS: '5',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engine did not start:\n${output.join('\n')}`)), timeoutMs);
    let buf = '';
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        output.push(line);
        const m = /engine ready on (http:\/\/[^"\s]+)/.exec(line);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engine exited (${code}) before it was ready:\n${output.join('\n')}`));
    });
  });
  const readyMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    readyMs,
    output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
