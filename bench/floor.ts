// The floor: the work every engine request carries whatever its query, as the issue asks for it with logs and
// metrics on (an x-request-id, the request's metrics, the original's http-log line): the metrics through the
// engine's own per-request counting, the rest written as cheaply as by hand. The ceiling does it in floor mode
// (bench/ceiling.ts), so `bench:paired --floor` shows how much of the engine's cost against the ceiling any engine
// doing that work pays, and how much is the engine's own.
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, write, writeSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { EngineMetrics } from '../src/core/metrics.js';

const FLUSH_MS = 20;
const MAX_WAITING = 256;
const ENDPOINT = '/v1/graphql';
const OPERATION_TYPE = 'query';

interface LogLine {
  requestId: string;
  status: number;
  size: number;
  seconds: number;
  ip: string;
  method: string;
  url: string;
}

export interface FloorWork {
  /** A new request id (the engine's x-request-id when the client sent none). */
  requestId(): string;
  /** After the response: count the request and queue its http-log line (written in batches, as the engine does). */
  done(req: IncomingMessage, requestId: string, status: number, size: number, started: bigint): void;
  /** Requests counted for this endpoint, operation type and status (read as a scrape reads them). */
  count(endpoint: string, operationType: string, status: number): Promise<number>;
  /** Writes what waits and closes the log file. */
  close(): void;
}

/** The floor's work, its request metrics the engine's own (src/core/metrics.ts), its http-log lines going to `logFile`. */
export function floorWork(logFile: string): FloorWork {
  const fd = openSync(logFile, 'a');
  const metrics = new EngineMetrics();
  let waiting: LogLine[] = [];
  let timer: NodeJS.Timeout | null = null;
  const text = (lines: LogLine[]): string => {
    const timestamp = new Date().toISOString();
    let out = '';
    for (const l of lines) {
      out += `{"level":"info","timestamp":"${timestamp}","type":"http-log","detail":{"operation":{"request_id":"${l.requestId}",`
        + `"user_vars":{"x-engine-role":"admin"},"response_size":${l.size},"query_execution_time":${l.seconds}},`
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
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.request(ENDPOINT, OPERATION_TYPE, status, seconds);
      waiting.push({ requestId, status, size, seconds, ip: req.socket.remoteAddress ?? '', method: req.method ?? '', url: req.url ?? '' });
      if (waiting.length >= MAX_WAITING) flush();
      else if (timer === null) timer = setTimeout(flush, FLUSH_MS);
    },
    async count(endpoint, operationType, status) {
      const counter = await metrics.registry.getSingleMetric('engine_http_requests_total')!.get();
      const found = counter.values.find((v) => v.labels.endpoint === endpoint && v.labels.operation_type === operationType && v.labels.status === String(status));
      return found?.value ?? 0;
    },
    close() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (waiting.length) writeSync(fd, text(waiting));
      waiting = [];
      closeSync(fd);
    },
  };
}
