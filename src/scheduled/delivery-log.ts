// The `scheduled-trigger` log line for one scheduled delivery, shaped as the `event-trigger` line
// (src/triggers/delivery-log.ts): {event_id, event_name, kind, scheduled_time, tries, response, delivery,
// execution_time}, `response` in the original's HTTPErr encoding, `delivery` delivered / retry / error / dead. The
// webhook URL and the headers are left out (they may hold credentials). Only built when the type is enabled
// (--enabled-log-types scheduled-trigger).
import { log } from '../core/log.js';
import type { Outcome } from '../triggers/payload.js';
import type { ScheduledDelivery } from './payload.js';

const TYPE = 'scheduled-trigger';

export const wantsScheduledLog = (): boolean => log.wants(TYPE);

function response(o: Outcome | null): unknown {
  if (o === null) return null;
  if (o.kind === 'client_error') return { type: 'client', detail: o.message };
  const r = { status: o.status, size: Buffer.byteLength(o.body) };
  return o.status >= 200 && o.status < 300 ? r : { type: 'status', detail: r };
}

/** `started`: process.hrtime.bigint() before the request was sent; `outcome` null for a dead event (no call). */
export function logScheduledDelivery(d: ScheduledDelivery, outcome: Outcome | null, delivery: 'delivered' | 'retry' | 'error' | 'dead', started: bigint): void {
  log.info(TYPE, {
    event_id: d.row.id,
    event_name: d.row.trigger_name,
    kind: d.row.kind,
    scheduled_time: d.row.scheduled_time,
    tries: outcome === null ? d.row.tries : d.row.tries + 1,
    response: response(outcome),
    delivery,
    execution_time: Number(process.hrtime.bigint() - started) / 1e9,
  });
}
