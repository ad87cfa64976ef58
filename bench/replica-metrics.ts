// Reads an engine routed to its read replicas and to the primary, from its GET /v1/metrics (bench/replicas.ts,
// bench/stale-reads.ts).

export async function routedReads(url: string): Promise<{ primary: number; replicas: number }> {
  const text = await (await fetch(`${url}/v1/metrics`)).text();
  let primary = 0;
  let replicas = 0;
  for (const m of text.matchAll(/^engine_read_queries_total\{source="([^"]*)"\} (\S+)$/gm)) {
    if (m[1] === 'primary') primary += Number(m[2]);
    else replicas += Number(m[2]);
  }
  return { primary, replicas };
}
