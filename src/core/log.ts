// Structured logs as the original writes them: one JSON object per line, {level, timestamp, type, detail}, on pino.
// One process-wide logger, so any layer can log without threading it through; tests can swap the sink.
//
// Log types: the ones a user can switch on and off (--enabled-log-types, USER_LOG_TYPES) and internal ones
// (any other type: sync, pool errors, ...), which are always written. A line is written when its level is at
// least the configured level and its type is enabled.
import pino from 'pino';
import { stdoutDestination, type Deferred, type LineDestination } from './log-stdout.js';

export type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * The original's configurable log types (its `userAllowedLogTypes`), and `event-trigger` and `scheduled-trigger`
 * (internal types there, always written): here they are switched like the others, off by default, as a line per
 * delivery is costly.
 */
export const USER_LOG_TYPES = [
  'startup', 'http-log', 'webhook-log', 'websocket-log', 'query-log', 'livequery-poller-log', 'action-handler-log', 'event-trigger',
  'scheduled-trigger',
] as const;
export type UserLogType = (typeof USER_LOG_TYPES)[number];
/** Enabled when --enabled-log-types is not given (as the original). */
export const DEFAULT_LOG_TYPES: readonly UserLogType[] = ['startup', 'http-log', 'webhook-log', 'websocket-log'];
const USER_TYPES: ReadonlySet<string> = new Set(USER_LOG_TYPES);

export type Sink = (line: string) => void;

export interface Logger {
  debug(type: string, detail?: Record<string, unknown>): void;
  info(type: string, detail?: Record<string, unknown>): void;
  warn(type: string, detail?: Record<string, unknown>): void;
  error(type: string, detail?: Record<string, unknown>): void;
  enabled(level: Level): boolean;
  /** Whether a line of this type and level would be written: build costly details (SQL, queries) only then. */
  wants(type: string, level?: Level): boolean;
  /**
   * A line whose detail is JSON text that `detail(rec)` makes when the line's batch is written (on stdout: with its
   * batch, ./log-stdout.ts; a sink gets it at once), with the timestamp of this call. For the http-log line of every
   * request (src/http/request-log.ts): it costs less built in one loop per batch than on each request's path, and
   * pino's generic serialisation cost more than the rest of the line's work. The caller checks `wants` first.
   */
  lineLater<T>(level: Level, type: string, detail: (rec: T) => string, rec: T): void;
}

/** Errors become {name, message, code?, path?, stack?} so they survive JSON.stringify. */
function jsonSafe(value: unknown): unknown {
  if (value instanceof Error) {
    const e = value as Error & { code?: unknown; path?: unknown };
    return { name: e.name, message: e.message, code: e.code, path: e.path, stack: e.stack?.split('\n').slice(0, 6).join('\n') };
  }
  return value;
}

/** The detail as it is when no top-level value is an Error (the common case: no copy), else a copy with them made plain. */
function plainDetail(detail: Record<string, unknown>): Record<string, unknown> {
  for (const k in detail) {
    if (detail[k] instanceof Error) {
      const copy: Record<string, unknown> = {};
      for (const key in detail) copy[key] = jsonSafe(detail[key]);
      return copy;
    }
  }
  return detail;
}

/**
 * The ISO timestamp of the current millisecond. The Date is formatted once per second (formatting one for every
 * line cost a microsecond); each millisecond appends its three digits to that second's text.
 */
let stampMs = -1;
let stamp = '';
let secondMs = -1;
let secondText = '';
function timestampField(): string {
  const now = Date.now();
  if (now !== stampMs) {
    stampMs = now;
    const ms = now % 1000;
    if (now - ms !== secondMs) {
      secondMs = now - ms;
      secondText = `,"timestamp":"${new Date(secondMs).toISOString().slice(0, 20)}`; // up to "...:SS."
    }
    stamp = `${secondText}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  }
  return stamp;
}

/** `,"type":<type>,"detail":` of a line type (a few dozen constants), made once per type. */
const typeMembers = new Map<string, string>();
function typeMember(type: string): string {
  let m = typeMembers.get(type);
  if (m === undefined) {
    m = `,"type":${JSON.stringify(type)},"detail":`;
    if (typeMembers.size < 256) typeMembers.set(type, m);
  }
  return m;
}

/** A lineLater line: what it will say, made into its text when its batch is written. */
class LaterLine<T> implements Deferred {
  constructor(
    private readonly level: Level,
    private readonly stamp: string,
    private readonly type: string,
    private readonly detail: (rec: T) => string,
    private readonly rec: T,
  ) {}

  line(): string {
    let detail: string;
    try {
      detail = this.detail(this.rec);
    } catch (e) {
      // Made on a timer, after its request: a failure must cost the line's detail, not the process.
      detail = JSON.stringify({ error: `the line's detail could not be made: ${String(e)}` });
    }
    return `{"level":"${this.level}"${this.stamp}${typeMember(this.type)}${detail}}\n`;
  }
}

const withoutNewline = (s: string): string => (s.endsWith('\n') ? s.slice(0, -1) : s);
/** A test's sink as a destination: it gets each line at once (stdout gets them in batches, ./log-stdout.ts). */
const sinkDestination = (sink: Sink): LineDestination => ({ write: (s) => sink(withoutNewline(s)), later: (d) => sink(withoutNewline(d.line())) });

export interface LogOptions {
  level?: Level | 'silent';
  /** Receives every line (without its newline) instead of stdout. */
  sink?: Sink;
  /** The enabled user log types (default DEFAULT_LOG_TYPES). */
  types?: readonly string[];
}

export function createLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? 'info';
  const min = RANK[level];
  const types = new Set(options.types ?? DEFAULT_LOG_TYPES);
  const silent = level === 'silent';
  const dest: LineDestination | null = silent ? null : options.sink ? sinkDestination(options.sink) : stdoutDestination();
  const p = dest === null
    ? null
    : pino(
        {
          level,
          base: null,
          timestamp: timestampField,
          formatters: { level: (label) => ({ level: label }) },
        },
        dest,
      );
  const wants = (type: string, lvl: Level = 'info'): boolean => RANK[lvl] >= min && (!USER_TYPES.has(type) || types.has(type));
  const write = (lvl: Level, type: string, detail: Record<string, unknown> | undefined): void => {
    if (p === null || !wants(type, lvl)) return;
    p[lvl]({ type, detail: detail === undefined ? {} : plainDetail(detail) });
  };
  return {
    debug: (t, d) => write('debug', t, d),
    info: (t, d) => write('info', t, d),
    warn: (t, d) => write('warn', t, d),
    error: (t, d) => write('error', t, d),
    enabled: (lvl) => RANK[lvl] >= min,
    wants,
    lineLater: (lvl, type, detail, rec) => {
      if (dest === null || !wants(type, lvl)) return;
      dest.later(new LaterLine(lvl, timestampField(), type, detail, rec));
    },
  };
}

let current: Logger = createLogger({ level: (process.env.ENGINE_GRAPHQL_LOG_LEVEL as Level | undefined) ?? 'info' });

/** The process-wide logger. */
export const log: Logger = {
  debug: (t, d) => current.debug(t, d),
  info: (t, d) => current.info(t, d),
  warn: (t, d) => current.warn(t, d),
  error: (t, d) => current.error(t, d),
  enabled: (lvl) => current.enabled(lvl),
  wants: (t, lvl) => current.wants(t, lvl),
  lineLater: (lvl, t, d, rec) => current.lineLater(lvl, t, d, rec),
};

/** Replaces the process-wide logger: level, sink (default stdout) and enabled user log types. */
export function configureLog(level: Level | 'silent', sink?: Sink, types?: readonly string[]): void {
  current = createLogger({ level, sink, types });
}
