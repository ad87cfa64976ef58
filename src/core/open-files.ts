// How many sockets this process may hold. Every socket is a file descriptor, and past the open-files limit the
// kernel refuses new ones: libuv then accepts and at once closes a waiting connection (the client sees a reset, the
// engine nothing), and a Postgres connection the pool opens at that moment fails (a failed poll for every subscriber
// of its batch). The websocket transport refuses upgrades before that point (src/subscriptions/server.ts).
import { readFileSync } from 'node:fs';

/** Descriptors kept for the process itself (listener, stdio, log files, event loop, outgoing HTTP, metadata listener). */
const OWN_FILES = 64;

/** The soft open-files limit in the text of /proc/<pid>/limits, or null when absent or unlimited. */
export function parseOpenFilesLimit(limits: string): number | null {
  const m = /^Max open files\s+(\d+|unlimited)\s/m.exec(limits);
  return m === null || m[1] === 'unlimited' ? null : Number(m[1]);
}

/** This process's soft open-files limit (Linux), or null when it cannot be read or is unlimited. */
export function openFilesLimit(): number | null {
  try {
    return parseOpenFilesLimit(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return null;
  }
}

/** Websockets a process may hold: its limit less its pools' connections and its own files (no limit: Infinity). */
export function websocketCapacity(limit: number | null, poolConnections: number): number {
  return limit === null ? Infinity : Math.max(0, limit - poolConnections - OWN_FILES);
}
