// The stale-read experiment's rounds (issue 32), shared by bench/stale-reads.ts and the read-your-writes test: each
// round inserts a row through the engine, then reads it back at once, sending the write's x-engine-write-lsn as
// x-engine-min-lsn or not. A read that does not find the row is stale. The engine must track `note (id serial,
// body text)`.

export interface RoundsResult {
  rounds: number;
  stale: number;
  /** Answers that were not data (none expected). */
  errors: string[];
  ms: number;
}

async function post(url: string, query: string, headers: Record<string, string> = {}): Promise<{ body: any; lsn: string | null; text: string }> {
  const res = await fetch(`${url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* reported as an error below */
  }
  return { body, lsn: res.headers.get('x-engine-write-lsn'), text };
}

/** `n` rounds shared by `clients` concurrent clients against the engine at `url`. */
export async function staleRounds(url: string, n: number, clients: number, withHeader: boolean): Promise<RoundsResult> {
  const out: RoundsResult = { rounds: n, stale: 0, errors: [], ms: 0 };
  const started = Date.now();
  let next = 0;
  const client = async (): Promise<void> => {
    while (next < n) {
      next++;
      const w = await post(url, 'mutation { insert_note_one(object: {body: "x"}) { id } }');
      const id = w.body?.data?.insert_note_one?.id;
      if (typeof id !== 'number' || w.lsn === null) {
        out.errors.push(`write: ${w.text} (lsn ${w.lsn})`);
        continue;
      }
      const r = await post(url, `query { note_by_pk(id: ${id}) { id } }`, withHeader ? { 'x-engine-min-lsn': w.lsn } : {});
      if (r.body?.errors || r.body?.data === undefined) out.errors.push(`read: ${r.text}`);
      else if (r.body.data.note_by_pk === null) out.stale++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  out.ms = Date.now() - started;
  return out;
}
