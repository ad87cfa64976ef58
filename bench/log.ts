// Bench progress log: one JSON object per line on stderr, so stdout stays free for the report table.
export type LogFields = Record<string, unknown>;

let quiet = false;

export function setQuiet(value: boolean): void {
  quiet = value;
}

export function log(msg: string, fields: LogFields = {}): void {
  if (quiet) return;
  process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), level: 'info', msg, ...fields })}\n`);
}

export function logError(msg: string, fields: LogFields = {}): void {
  process.stderr.write(`${JSON.stringify({ ts: new Date().toISOString(), level: 'error', msg, ...fields })}\n`);
}
