// How many sockets this process may hold. Every socket is a file descriptor, and past the open-files limit the
// kernel refuses new ones: libuv then accepts and at once closes a waiting connection (the client sees a reset, the
// engine nothing), and a Postgres connection the pool opens at that moment fails (a failed poll for every subscriber
// of its batch). The server stops accepting before that point, and the websocket transport refuses upgrades with a
// 503 a little earlier still (src/subscriptions/server.ts).
import { readFileSync } from 'node:fs';

/**
 * Descriptors kept for the process itself: listener, stdio, log files, event loop, metadata listener (28 counted on
 * an idle engine, a few pool connections among them) and outgoing HTTP (webhooks, actions, remote schemas).
 */
const OWN_FILES = 64;
/** Upgrades accepted but not yet open (each holds a descriptor until it is refused), in a burst of connections. */
const UPGRADES_IN_FLIGHT = 32;

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

/**
 * Client connections (HTTP and websocket) a process may hold: its limit less its pools' connections and its own
 * files (no limit: Infinity). Node's server closes a connection past it at once (server.maxConnections).
 */
export function connectionBudget(limit: number | null, poolConnections: number): number {
  return limit === null ? Infinity : Math.max(0, limit - poolConnections - OWN_FILES);
}

/**
 * Open websockets past which an upgrade is refused with a 503: the connection budget less room for the upgrades of
 * a burst still in flight, so that a client is told why rather than having its connection closed unanswered.
 */
export function websocketCapacity(limit: number | null, poolConnections: number): number {
  return Math.max(0, connectionBudget(limit, poolConnections) - UPGRADES_IN_FLIGHT);
}
