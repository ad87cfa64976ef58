// The metadata history operations (engine extensions to /v1/query, admin only, read only; names prefixed `engine_`
// so they cannot clash with the original's): the log page by page with one-line summaries, the export as it was at
// a version (seq), and a structured diff of two versions. Reverting is an ordinary replace_metadata with the export
// at N, so a revert is itself history. The CLI (`engine history list|show|diff`) calls the same functions.
import type pg from 'pg';
import { z } from 'zod';
import { EngineError } from '../core/errors.js';
import { decode } from '../../events/argument-shapes.js';
import { headSeq, readPageNewestFirst, readRange, snapshotAtOrBefore } from '../../events/log.js';
import { emptyMetadata, type Metadata } from '../../projections/metadata.js';
import { fold } from '../../projections/replay.js';
import { exportMetadata } from '../../projections/export.js';
import { diffExports, summarize, type Change } from '../../projections/history.js';
import type { MigrationRef } from '../../events/types.js';

export interface HistoryEntry {
  seq: number;
  time: string;
  type: string;
  operation: string | null;
  request_id: string | null;
  role: string | null;
  summary: string;
  /** The schema migration the event applied (a migration's sql_ran), else null. */
  migration: MigrationRef | null;
}

export interface HistoryPage {
  head: number;
  offset: number;
  limit: number;
  entries: HistoryEntry[];
}

const seqArg = z.number().int().nonnegative();
const listArgs = z.object({ offset: seqArg.optional(), limit: z.number().int().min(1).max(1000).optional() }).strict();
const exportArgs = z.object({ version: seqArg }).strict();
const diffArgs = z.object({ from: seqArg, to: seqArg.optional() }).strict();

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Newest first: `offset` events are skipped, at most `limit` (default 50) returned. */
export async function historyList(client: pg.ClientBase, offset = 0, limit = 50): Promise<HistoryPage> {
  const [head, events] = await Promise.all([headSeq(client), readPageNewestFirst(client, offset, limit)]);
  return {
    head,
    offset,
    limit,
    entries: events.map((e) => ({
      seq: e.seq,
      time: e.createdAt,
      type: e.type,
      operation: str(e.meta.operation),
      request_id: str(e.meta.request_id),
      role: str(e.meta.role),
      summary: summarize(e),
      migration: e.type === 'sql_ran' ? (e.data.migration ?? null) : null,
    })),
  };
}

/** The metadata as it was after event `version` (0: empty), folded from the newest snapshot at or before it. */
export async function metadataAt(client: pg.ClientBase, version: number): Promise<Metadata> {
  const head = await headSeq(client);
  if (version > head) throw new EngineError('not-exists', `version ${version} does not exist (the newest is ${head})`, { path: '$.args' });
  const snapshot = await snapshotAtOrBefore(client, version);
  const base = snapshot ? (snapshot.metadata as Metadata) : emptyMetadata();
  return fold(base, await readRange(client, snapshot?.seq ?? 0, version));
}

export const exportAt = async (client: pg.ClientBase, version: number): Promise<Record<string, unknown>> =>
  exportMetadata(await metadataAt(client, version));

export interface HistoryDiff {
  from: number;
  to: number;
  changes: Change[];
}

/** The changes from version `from` to version `to` (default: the newest). */
export async function historyDiff(client: pg.ClientBase, from: number, to?: number): Promise<HistoryDiff> {
  const target = to ?? (await headSeq(client));
  const [a, b] = [await exportAt(client, from), await exportAt(client, target)];
  return { from, to: target, changes: diffExports(a, b) };
}

/** The history operations' args (their errors point under `$.args`). */
export const historyListArgs = (raw: unknown) => decode(listArgs, raw ?? {}, ['args']);
export const historyExportArgs = (raw: unknown) => decode(exportArgs, raw, ['args']);
export const historyDiffArgs = (raw: unknown) => decode(diffArgs, raw, ['args']);
