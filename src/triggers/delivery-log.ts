// The original's `event-trigger` line for one delivery attempt: {event_id, event_name, response}, where response is
// {status, size} for a 2xx answer, else {type: "status", detail: {status, size}} or {type: "client", detail: message}
// (its HTTPErr encoding). Ours adds what an operator asks next: the table, the attempt number, the decision taken
// (delivered / retry / error) and the attempt's duration in seconds (execution_time, as http-log's
// query_execution_time). The webhook URL and the request headers are left out: both may come from environment
// variables that hold credentials. Only built when the type is enabled (--enabled-log-types event-trigger).
import { log } from '../core/log.js';
import type { ClaimedEvent, Decision, Outcome } from './payload.js';

const TYPE = 'event-trigger';

export const wantsDeliveryLog = (): boolean => log.wants(TYPE);

function response(o: Outcome): unknown {
  if (o.kind === 'client_error') return { type: 'client', detail: o.message };
  const r = { status: o.status, size: Buffer.byteLength(o.body) };
  return o.status >= 200 && o.status < 300 ? r : { type: 'status', detail: r };
}

/** `started`: process.hrtime.bigint() before the request was sent. */
export function logDelivery(e: ClaimedEvent, outcome: Outcome, decision: Decision, started: bigint): void {
  log.info(TYPE, {
    event_id: e.id,
    event_name: e.trigger_name,
    table: { schema: e.schema_name, name: e.table_name },
    tries: e.tries + 1,
    response: response(outcome),
    delivery: decision.kind,
    execution_time: Number(process.hrtime.bigint() - started) / 1e9,
  });
}
