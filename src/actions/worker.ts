// The async actions worker, one per engine instance: every second (as the original) it claims up to 10 stored
// calls (Note [Async action lease] in log.ts), calls each handler as a sync action would be called, with the
// session and client headers stored at enqueue time, and stores the output or the error. No retries.
import pg from 'pg';
import { EngineError, metadataErrorBody } from '../core/errors.js';
import { log } from '../core/log.js';
import { ConnectionWatch } from '../core/connection-watch.js';
import type { EngineState } from '../cache/state.js';
import type { ActionInfo } from '../cache/types.js';
import { callHandler, type OutputShape } from './call.js';
import { claimActions, finishAction, type ClaimedAction } from './log.js';
import { baseName, isListExpr, parseTypeExpr } from './schema.js';

export interface WorkerOptions {
  pool: pg.Pool;
  state(): EngineState;
  instanceId: string;
  /** Poll interval in ms (default 1000). */
  intervalMs?: number;
  /** Seconds a claim outlives the longest async action timeout (default 10). */
  leaseMarginSeconds?: number;
}

const BATCH = 10;

function outputShape(state: EngineState, a: ActionInfo): OutputShape {
  const t = parseTypeExpr(a.definition.output_type);
  const def = state.cache.customTypes?.objects?.find((o) => o.name === baseName(t));
  return { list: isListExpr(t), spec: (def?.fields ?? []).map((f) => ({ name: f.name, nullable: !f.type.trim().endsWith('!') })) };
}

/** How long a claim lasts: the longest async action timeout plus the margin (Note [Async action lease]). */
export function leaseSeconds(state: EngineState, margin: number): number {
  let longest = 0;
  for (const a of Object.values(state.cache.actions ?? {})) {
    if (a.definition.kind === 'asynchronous') longest = Math.max(longest, a.definition.timeout);
  }
  return longest + margin;
}

/**
 * The worker of an engine (src/features.ts lists it): its own small pool, so that its polling never competes with
 * requests for connections.
 */
export function asyncActionsWorker(ctx: { newPool(name: string, max: number): pg.Pool; instanceId: string; state(): EngineState }): { start(): void; stop(): Promise<void> } {
  const pool = ctx.newPool('engine-actions', 2);
  const worker = new ActionWorker({ pool, state: ctx.state, instanceId: ctx.instanceId });
  return {
    start: () => worker.start(),
    async stop() {
      await worker.close();
      await pool.end().catch(() => undefined);
    },
  };
}

export class ActionWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  private readonly polling = new ConnectionWatch('action-worker', 'polling async actions');

  constructor(private readonly o: WorkerOptions) {}

  start(): void {
    const tick = () => {
      if (this.closed) return;
      this.running = this.poll().then(() => this.polling.back())
        .catch((e: unknown) => {
          this.polling.lost();
          log.warn('action-worker', { message: 'poll failed', error: e });
        })
        .finally(() => {
          this.running = null;
          if (!this.closed) this.timer = setTimeout(tick, this.o.intervalMs ?? 1000);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** One round: claim, then run the claimed calls concurrently. */
  async poll(): Promise<number> {
    const state = this.o.state();
    const rows = await claimActions(this.o.pool, this.o.instanceId, leaseSeconds(state, this.o.leaseMarginSeconds ?? 10), BATCH);
    await Promise.all(rows.map((r) => this.run(r)));
    return rows.length;
  }

  private async run(row: ClaimedAction): Promise<void> {
    const state = this.o.state();
    const a = state.cache.actions?.[row.action_name];
    let outcome: { output: unknown } | { errors: unknown };
    if (!a) {
      outcome = { errors: { path: '$', error: `action "${row.action_name}" does not exist`, code: 'not-exists' } };
    } else {
      try {
        const call = {
          name: a.name, handler: a.handler, headers: a.definition.headers, forwardClientHeaders: a.definition.forward_client_headers,
          timeout: a.definition.timeout, input: [],
        };
        const r = await callHandler(call, row.input, row.session_variables, row.request_headers, outputShape(state, a));
        outcome = { output: r.value };
      } catch (e) {
        const err = e instanceof EngineError ? e : new EngineError('unexpected', 'an unexpected error occurred', { status: 500, internal: { message: String(e) } });
        outcome = { errors: metadataErrorBody(err, true) };
      }
    }
    const stored = await finishAction(this.o.pool, this.o.instanceId, row.id, outcome);
    if (!stored) log.warn('action-worker', { message: 'lost the lease before storing the result', action: row.action_name, id: row.id });
  }
}
