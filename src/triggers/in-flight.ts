// A delivery worker's shutdown: the deliveries in flight may finish for a grace period, then the rest are aborted
// (each gives its claim back when it sees the abort).
export interface InFlightDelivery {
  abort: AbortController;
  done: Promise<void>;
}

/** Resolves once every delivery has ended: by itself within `graceMs`, else aborted. */
export async function drainInFlight(deliveries: InFlightDelivery[], graceMs: number): Promise<void> {
  const all = Promise.all(deliveries.map((x) => x.done));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([all, new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
  clearTimeout(timer);
  for (const x of deliveries) x.abort.abort();
  await all;
}
