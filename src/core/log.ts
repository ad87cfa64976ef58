// Structured logs as the original writes them: one JSON object per line, {level, timestamp, type, detail}, on pino.
// One process-wide logger, so any layer can log without threading it through; tests can swap the sink.
//
// Log types: the ones a user can switch on and off (--enabled-log-types, USER_LOG_TYPES) and internal ones
// (any other type: sync, pool errors, ...), which are always written. A line is written when its level is at
// least the configured level and its type is enabled.
import pino from 'pino';

export type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/**
 * The original's configurable log types (its `userAllowedLogTypes`), and `event-trigger` (an internal type there,
 * always written): here it is switched like the others, off by default, as a line per delivery is costly.
 */
export const USER_LOG_TYPES = [
  'startup', 'http-log', 'webhook-log', 'websocket-log', 'query-log', 'livequery-poller-log', 'action-handler-log', 'event-trigger',
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
   * A line whose detail is already JSON text, written as pino writes the others (same fields, same destination):
   * for the http-log line of every request, where pino's generic serialisation cost more than the rest of the
   * line's work (see src/http/request-log.ts). The caller checks `wants` first.
   */
  line(level: Level, type: string, detailJson: string): void;
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

interface Writable {
  write(s: string): unknown;
}

/**
 * stdout through pino's asynchronous destination (sonic-boom). Lines are handed to it in batches, at most FLUSH_MS
 * after the first one waits (or once the batch is full): a write per request line (synchronous when stdout is a
 * file or a pipe) cost ~35 us of ~200 us per small request. sonic-boom's own `minLength` batching is not used: it
 * keeps a tail shorter than minLength until more lines come, so a quiet server would not show its last lines.
 * What waits at exit is written synchronously. One destination per process, made at the first line.
 *
 * A line is encoded into the batch's bytes as it comes, one flat line at a time. Kept as one concatenation of
 * strings until the flush, the batch was measured by node walking that concatenation (v8::String::Utf8Length), then
 * flattened and encoded (callgrind, a primary-key query: 226.5k → 223.8k instructions per request).
 */
const FLUSH_MS = 20;
const BATCH_BYTES = 64 * 1024;
let stdoutDest: Writable | null = null;
/** sonic-boom made with contentMode 'buffer': it writes bytes, though its type only admits strings. */
interface ByteDestination {
  write(bytes: Buffer): boolean;
  flushSync(): void;
}
function stdoutStream(): Writable {
  if (stdoutDest !== null) return stdoutDest;
  let boom: ByteDestination | null = null;
  const batch = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (used === 0 || boom === null) return;
    // sonic-boom keeps the bytes until its asynchronous write is done: it gets a copy the size of the lines (a new
    // 64 KB batch per flush would be mostly empty on a quiet server), and the batch is filled again.
    const out = Buffer.from(batch.subarray(0, used));
    used = 0;
    boom.write(out);
  };
  stdoutDest = {
    write(s: string) {
      if (boom === null) {
        boom = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as ByteDestination;
        // Registered after pino's own exit hook (which flushes the destination): this one writes synchronously.
        process.on('exit', () => {
          flush();
          try {
            boom?.flushSync();
          } catch {
            /* stdout gone: nothing to do at exit */
          }
        });
      }
      // A UTF-16 code unit takes at most 3 bytes of UTF-8.
      if (used + 3 * s.length > batch.length) {
        flush();
        if (3 * s.length > batch.length) return void boom.write(Buffer.from(s, 'utf8'));
      }
      used += batch.write(s, used);
      if (timer === null) {
        timer = setTimeout(flush, FLUSH_MS);
        timer.unref();
      }
    },
  };
  return stdoutDest;
}

const sinkStream = (sink: Sink): Writable => ({ write: (s: string) => sink(s.endsWith('\n') ? s.slice(0, -1) : s) });

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
  const dest = silent ? null : options.sink ? sinkStream(options.sink) : stdoutStream();
  const p = dest === null
    ? null
    : pino(
        {
          level,
          base: null,
          timestamp: timestampField,
          formatters: { level: (label) => ({ level: label }) },
        },
        dest as pino.DestinationStream,
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
    line: (lvl, type, detailJson) => {
      if (dest === null || !wants(type, lvl)) return;
      dest.write(`{"level":"${lvl}"${timestampField()}${typeMember(type)}${detailJson}}\n`);
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
  line: (lvl, t, d) => current.line(lvl, t, d),
};

/** Replaces the process-wide logger: level, sink (default stdout) and enabled user log types. */
export function configureLog(level: Level | 'silent', sink?: Sink, types?: readonly string[]): void {
  current = createLogger({ level, sink, types });
}
