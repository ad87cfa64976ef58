// Which failures of a read mean that its source went away rather than that the read was wrong: the read is then
// worth one more try on another source (the client never sees the replica go), and a replica that went away
// leaves the rotation at once instead of at the next health poll.

/** SQLSTATEs of a server shutting down or refusing connections, and of broken connections (class 08). */
const GONE_STATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
/** Socket errors of node's net module. */
const GONE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's own messages for a connection that ended or never came (no code on those errors). */
const GONE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i;

export type Failure = 'gone' | 'recovery-conflict' | 'other';

export function failureOf(e: unknown): Failure {
  if (e === null || typeof e !== 'object') return 'other';
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (GONE_STATES.has(code) || GONE_SOCKET.has(code))) return 'gone';
  // A standby cancels a read whose rows recovery must remove (40001 with this message; a serialization failure
  // on the primary has another): the read itself was fine.
  if (code === '40001' && typeof message === 'string' && /conflict with recovery/i.test(message)) return 'recovery-conflict';
  if (typeof message === 'string' && GONE_MESSAGE.test(message)) return 'gone';
  return 'other';
}
