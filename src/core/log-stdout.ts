// The logger's stdout: pino's asynchronous destination (sonic-boom), fed in batches. Lines wait at most FLUSH_MS
// after the first one (or until MAX_WAITING of them wait): a write per request line (synchronous when stdout is a
// file or a pipe) cost ~35 us of ~200 us per small request. sonic-boom's own `minLength` batching is not used: it
// keeps a tail shorter than minLength until more lines come, so a quiet server would not show its last lines.
// What waits at exit is written synchronously. One destination per process, made at the first line.
//
// A waiting line is either its text or a Deferred line, whose text is made only when its batch is written: the
// http-log line of every request is built there, in one loop over the batch, rather than on each request's path
// between the response and the next request (CPU per request against the bench's ceiling, medians of paired runs
// on eight fresh spawns: a primary-key query 1.35 → 1.31, an aggregate 1.25 → 1.22; a large answer unchanged).
// Lines are encoded one flat line at a time: kept as one concatenation until the flush, the batch was measured by
// node walking the concatenation (v8::String::Utf8Length), then flattened and encoded.
import { writeSync } from 'node:fs';
import pino from 'pino';

/** A line made when its batch is written: it keeps what the line will say, and says it in `line()` (newline included). */
export interface Deferred {
  line(): string;
}

export interface LineDestination {
  /** A line's text, newline included. */
  write(line: string): void;
  later(line: Deferred): void;
}

const FLUSH_MS = 20;
const BATCH_BYTES = 64 * 1024;
/** Lines waiting beyond which the batch is written at once: under load, memory stays bounded and lines keep flowing. */
const MAX_WAITING = 256;

/** sonic-boom made with contentMode 'buffer': it writes bytes, though its type only admits strings. */
interface ByteDestination {
  write(bytes: Buffer): boolean;
  flushSync(): void;
}

let stdoutLines: LineDestination | null = null;

export function stdoutDestination(): LineDestination {
  if (stdoutLines !== null) return stdoutLines;
  let boom: ByteDestination | null = null;
  const batch = Buffer.allocUnsafe(BATCH_BYTES);
  let used = 0;
  let waiting: Array<string | Deferred> = [];
  let timer: NodeJS.Timeout | null = null;
  // sonic-boom keeps the bytes until its asynchronous write is done: it gets a copy the size of the lines (a new
  // 64 KB batch per flush would be mostly empty on a quiet server), and the batch is filled again.
  let out = (bytes: Buffer): void => void boom!.write(bytes);
  const send = (): void => {
    if (used === 0) return;
    const bytes = Buffer.from(batch.subarray(0, used));
    used = 0;
    out(bytes);
  };
  // A UTF-16 code unit takes at most 3 bytes of UTF-8.
  const encode = (s: string): void => {
    if (used + 3 * s.length > batch.length) {
      send();
      if (3 * s.length > batch.length) return void out(Buffer.from(s, 'utf8'));
    }
    used += batch.write(s, used);
  };
  const flush = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiting.length === 0) return; // (the first line waiting made boom)
    const lines = waiting;
    waiting = [];
    for (const l of lines) encode(typeof l === 'string' ? l : l.line());
    send();
  };
  const add = (l: string | Deferred): void => {
    if (boom === null) {
      // When the event loop runs dry, the waiting lines go out while it can still write them. Registered before
      // pino's own hook, which ends the destination then.
      process.on('beforeExit', flush);
      boom = pino.destination({ dest: 1, sync: false, contentMode: 'buffer' }) as unknown as ByteDestination;
      // At exit (after pino's hook has written what sonic-boom holds) the waiting lines are written here,
      // synchronously: handed to sonic-boom, they would start an asynchronous write that the exit cuts short.
      // flushSync again here keeps that order should pino's hook not have run (a destination it saw close).
      process.on('exit', () => {
        try {
          boom!.flushSync();
          out = writeStdoutSync;
          flush();
        } catch {
          /* stdout gone: nothing to do at exit */
        }
      });
    }
    waiting.push(l);
    if (waiting.length >= MAX_WAITING) flush();
    else if (timer === null) {
      timer = setTimeout(flush, FLUSH_MS);
      timer.unref();
    }
  };
  stdoutLines = { write: add, later: add };
  return stdoutLines;
}

/** All the bytes to stdout now; a full pipe (EAGAIN) is waited for, 10 ms at a time. */
function writeStdoutSync(bytes: Buffer): void {
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}
