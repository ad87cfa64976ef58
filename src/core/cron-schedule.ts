// Cron schedules as the original reads them (its Haskell `cron` package): five fields (minute, hour, day of month,
// month, day of week) of numbers, `*`, ranges, steps and lists, or one of @yearly, @monthly, @weekly, @daily,
// @hourly; occurrences in UTC, strictly after a given instant, day of month OR day of week when both are
// restricted. The expansion itself is cron-parser's; this module only keeps to the original's grammar (no
// seconds field, no L, #, H, ? or names, which cron-parser would also take).
import { CronExpressionParser } from 'cron-parser';

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const FIELDS = ['minute', 'hour', 'day of month', 'month', 'day of week'] as const;
const FIELD_RE = /^[0-9*,/-]+$/;

/** The five-field form of an expression, or why it is not one the original accepts. */
export function cronFields(expression: string): { ok: true; fields: string } | { ok: false; reason: string } {
  const text = expression.trim();
  const macro = MACROS[text];
  if (macro !== undefined) return { ok: true, fields: macro };
  const parts = text === '' ? [] : text.split(/\s+/);
  if (parts.length !== FIELDS.length) return { ok: false, reason: `expected 5 fields (minute hour day-of-month month day-of-week), found ${parts.length}` };
  const bad = parts.findIndex((p) => !FIELD_RE.test(p));
  if (bad >= 0) return { ok: false, reason: `unexpected characters in the ${FIELDS[bad]} field: "${parts[bad]}"` };
  try {
    CronExpressionParser.parse(parts.join(' '), { tz: 'UTC', currentDate: 0 });
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  return { ok: true, fields: parts.join(' ') };
}

/** Why `expression` is not a valid schedule (null when it is). */
export function cronScheduleError(expression: string): string | null {
  const r = cronFields(expression);
  return r.ok ? null : `invalid cron expression "${expression}": ${r.reason}`;
}

/** The first `n` occurrences strictly after `after` (fewer when the schedule ends, as Feb 30 never comes). */
export function nextOccurrences(expression: string, after: Date, n: number): Date[] {
  const r = cronFields(expression);
  if (!r.ok) throw new Error(`invalid cron expression "${expression}": ${r.reason}`);
  const it = CronExpressionParser.parse(r.fields, { tz: 'UTC', currentDate: after });
  const out: Date[] = [];
  try {
    while (out.length < n) out.push(it.next().toDate());
  } catch {
    // no further occurrence
  }
  return out;
}
