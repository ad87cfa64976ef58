// One client process of bench/subscriptions.ts: a share of the subscribers, each on its own socket, spread over the
// engines round-robin. A process may hold only as many sockets as its open-files limit allows (20,000 on the
// machine the bench was written on, for the engine and the client alike), so 20,000 subscribers need several.
// Driven over IPC by the bench: `start` → `connected` (every subscriber had its initial result, or the deadline
// passed), `update-start` (latencies count from then), `report` → `counters`, `close` → exit.
import WebSocket from 'ws';

export interface ClientStart {
  type: 'start';
  /** ws:// URLs of the engines; subscriber `id` goes to urls[id % urls.length]. */
  urls: string[];
  protocol: string;
  /** Subscribers `from`..`to` (inclusive), one row id each. */
  from: number;
  to: number;
  /** Handshakes in flight at once. */
  concurrency: number;
  timeoutMs: number;
}

export interface ClientCounters {
  type: 'counters';
  latencies: number[];
  errors: number;
  errorSamples: string[];
  messages: number;
  closedByServer: number;
  /** Sockets that failed to open (reset, refused, timed out): the subscriber never connected. */
  connectFailures: number;
  connectFailureSamples: string[];
}

export type ParentMessage = ClientStart | { type: 'update-start'; at: number } | { type: 'report' } | { type: 'close' };
export type ChildMessage = { type: 'connected'; initial: number; failed: number } | ClientCounters;

const QUERY = 'subscription ($id: Int!) { items(where: {id: {_eq: $id}}) { id value updated_at } }';

const c: ClientCounters = { type: 'counters', latencies: [], errors: 0, errorSamples: [], messages: 0, closedByServer: 0, connectFailures: 0, connectFailureSamples: [] };
const sockets: WebSocket[] = [];
let updateStart = 0;
let initial = 0;
let closing = false;

const sample = (into: string[], why: string): void => {
  if (into.length < 5) into.push(why.slice(0, 200));
};

function onMessage(socket: WebSocket, protocol: string, id: number, state: { initial: boolean }, data: WebSocket.RawData): void {
  const fail = (why: string): void => {
    c.errors++;
    sample(c.errorSamples, why);
  };
  const m = JSON.parse(String(data)) as { type: string; payload?: { data?: { items?: Array<{ id: number; value: number; updated_at: string }> }; errors?: unknown } };
  if (m.type === 'connection_ack' && protocol === 'graphql-transport-ws') {
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: QUERY, variables: { id } } }));
    return;
  }
  if (m.type === 'ka' || m.type === 'connection_ack' || m.type === 'ping' || m.type === 'pong') return;
  if (m.type !== 'data' && m.type !== 'next') return fail(JSON.stringify(m));
  c.messages++;
  if (m.payload?.errors !== undefined) return fail(JSON.stringify(m.payload));
  const row = m.payload?.data?.items?.[0];
  if (!row || row.id !== id || typeof row.value !== 'number' || Number.isNaN(Date.parse(row.updated_at))) return fail(JSON.stringify(m.payload));
  if (!state.initial) {
    state.initial = true;
    initial++;
    return;
  }
  const at = Date.parse(row.updated_at);
  if (updateStart > 0 && at >= updateStart) c.latencies.push(Date.now() - at);
}

/** Opens one subscriber; resolves once its socket is open or has failed (a failure is counted, not thrown). */
function openSubscriber(url: string, protocol: string, id: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, [protocol], { perMessageDeflate: false });
    const state = { initial: false };
    let opened = false;
    socket.on('open', () => {
      opened = true;
      sockets.push(socket);
      socket.send(JSON.stringify({ type: 'connection_init', payload: { headers: { 'x-engine-admin-secret': 'bench' } } }));
      // Apollo clients send start right after init (as graphql-bench does); graphql-transport-ws waits for the ack.
      if (protocol === 'graphql-ws') socket.send(JSON.stringify({ id: '1', type: 'start', payload: { query: QUERY, variables: { id } } }));
      resolve();
    });
    socket.on('error', (e: Error & { code?: string }) => {
      if (opened) return;
      c.connectFailures++;
      sample(c.connectFailureSamples, e.code ?? e.message);
      resolve();
    });
    socket.on('close', () => {
      if (opened && !closing) c.closedByServer++;
    });
    socket.on('message', (data) => onMessage(socket, protocol, id, state, data));
  });
}

async function start(m: ClientStart): Promise<void> {
  let next = m.from;
  const worker = async (): Promise<void> => {
    while (next <= m.to) {
      const id = next++;
      await openSubscriber(m.urls[id % m.urls.length], m.protocol, id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(m.concurrency, m.to - m.from + 1) }, worker));
  const deadline = Date.now() + m.timeoutMs;
  while (initial + c.connectFailures < m.to - m.from + 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  process.send!({ type: 'connected', initial, failed: c.connectFailures } satisfies ChildMessage);
}

process.on('message', (m: ParentMessage) => {
  if (m.type === 'start') void start(m);
  else if (m.type === 'update-start') updateStart = m.at;
  else if (m.type === 'report') process.send!(c);
  else {
    closing = true;
    for (const s of sockets) s.terminate();
    process.disconnect();
  }
});
