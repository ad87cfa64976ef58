// The floor: the work every engine request carries whatever its query, as the issue asks for it with logs and
// metrics on (an x-request-id, the request's metrics, the original's http-log line), written as cheaply as by
// hand. The ceiling does it in floor mode (bench/ceiling.ts), so `bench:paired --floor` shows how much of the
// engine's cost against the ceiling any engine doing that work pays, and how much is the engine's own.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, write, writeSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';

/** The engine's request-duration buckets (seconds). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const FLUSH_MS = 20;
const MAX_WAITING = 256;

interface Series {
  count: number;
  sum: number;
  buckets: Float64Array;
}

interface LogLine {
  requestId: string;
  status: number;
  size: number;
  ns: number;
  ip: string;
  method: string;
  url: string;
}

export interface FloorWork {
  /** A new request id (the engine's x-request-id when the client sent none). */
  requestId(): string;
  /** After the response: count the request and queue its http-log line (written in batches, as the engine does). */
  done(req: IncomingMessage, requestId: string, status: number, size: number, started: bigint): void;
  /** Requests counted for this endpoint, operation type and status. */
  count(endpoint: string, operationType: string, status: number): number;
  /** Writes what waits and closes the log file. */
  close(): void;
}

/** The floor's work, its http-log lines going to `logFile`. */
export function floorWork(logFile: string): FloorWork {
  const fd = openSync(logFile, 'a');
  const series = new Map<string, Series>();
  let waiting: LogLine[] = [];
  let timer: NodeJS.Timeout | null = null;
  const seriesKey = (endpoint: string, operationType: string, status: number) => `${endpoint}\u0000${operationType}\u0000${status}`;
  const text = (lines: LogLine[]): string => {
    const timestamp = new Date().toISOString();
    let out = '';
    for (const l of lines) {
      out += `{"level":"info","timestamp":"${timestamp}","type":"http-log","detail":{"operation":{"request_id":"${l.requestId}",`
        + `"user_vars":{"x-engine-role":"admin"},"response_size":${l.size},"query_execution_time":${l.ns / 1e9}},`
        + `"http_info":{"status":${l.status},"method":"${l.method}","ip":"${l.ip}","url":"${l.url}","http_version":"HTTP/1.1","content_encoding":null}}}\n`;
    }
    return out;
  };
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiting.length === 0) return;
    const lines = waiting;
    waiting = [];
    write(fd, text(lines), () => undefined);
  };
  return {
    requestId: () => randomUUID(),
    done(req, requestId, status, size, started) {
      const ns = Number(process.hrtime.bigint() - started);
      const key = seriesKey('/v1/graphql', 'query', status);
      let s = series.get(key);
      if (s === undefined) series.set(key, (s = { count: 0, sum: 0, buckets: new Float64Array(BUCKETS.length) }));
      s.count++;
      s.sum += ns / 1e9;
      for (let i = 0; i < BUCKETS.length; i++) {
        if (ns / 1e9 <= BUCKETS[i]) {
          s.buckets[i]++;
          break;
        }
      }
      waiting.push({ requestId, status, size, ns, ip: req.socket.remoteAddress ?? '', method: req.method ?? '', url: req.url ?? '' });
      if (waiting.length >= MAX_WAITING) flush();
      else if (timer === null) timer = setTimeout(flush, FLUSH_MS);
    },
    count: (endpoint, operationType, status) => series.get(seriesKey(endpoint, operationType, status))?.count ?? 0,
    close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (waiting.length) writeSync(fd, text(waiting));
      waiting = [];
      closeSync(fd);
    },
  };
}
