// The JWK set behind jwk_url: fetched at start-up and refreshed on the schedule the response's cache headers give
// (Cache-Control max-age / s-maxage, else Expires). Clock and timers are injectable so tests never wait.
import { importJWK, type JWK } from 'jose';
import { readCapped } from './read-capped.js';

export const RETRY_MS = 60_000;
/** Keeps a `max-age=0` or an Expires in the past from turning into a hot refetch loop. */
const MIN_DELAY_MS = 1_000;
/** setTimeout's largest delay (about 24.8 days). */
const MAX_DELAY_MS = 2_147_483_647;

export interface JwkDeps {
  fetch?: typeof fetch;
  /** Milliseconds since the epoch. */
  now?: () => number;
  setTimer?: (fn: () => Promise<void>, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  log?: (level: 'info' | 'error', message: string) => void;
  /** Per-request time-out of a JWK fetch. */
  timeoutMs?: number;
}

export type FetchOutcome =
  /** `nextInMs`: when the cache headers say the keys expire; null when neither header could be parsed. */
  | { ok: true; keys: number; nextInMs: number | null }
  | { ok: false; error: string };

/** The refresh decision, pure: how long until the next fetch, or null for "never" (start-up without cache headers). */
export function nextRefreshDelay(outcome: FetchOutcome, atStartup: boolean): number | null {
  if (outcome.ok && outcome.nextInMs !== null) return Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, outcome.nextInMs));
  if (outcome.ok && atStartup) return null;
  return RETRY_MS;
}

/** Seconds from Cache-Control's max-age (or s-maxage); null when the header has neither. */
export function maxAgeSeconds(cacheControl: string): number | null {
  let sMaxAge: number | null = null;
  for (const part of cacheControl.split(',')) {
    const m = /^\s*(max-age|s-maxage)\s*=\s*"?(\d+)"?\s*$/i.exec(part);
    if (!m) continue;
    const n = Number(m[2]);
    if (m[1].toLowerCase() === 'max-age') return n;
    sMaxAge ??= n;
  }
  return sMaxAge;
}

/** Milliseconds until the keys expire per the headers: Cache-Control wins when present; Expires only without it. */
export function expiryFromHeaders(get: (name: string) => string | null | undefined, nowMs: number): number | null {
  const cc = get('cache-control');
  if (cc !== null && cc !== undefined) {
    const s = maxAgeSeconds(cc);
    return s === null ? null : s * 1000;
  }
  const expires = get('expires');
  if (expires === null || expires === undefined) return null;
  const at = Date.parse(expires);
  return Number.isNaN(at) ? null : at - nowMs;
}

/** A JWK from the set, with its imported verification keys cached per algorithm. */
export interface StoredJwk {
  jwk: JWK;
  key(alg: string): Promise<CryptoKey | Uint8Array | null>;
}

function storeJwk(jwk: JWK): StoredJwk {
  const cache = new Map<string, Promise<CryptoKey | Uint8Array | null>>();
  return {
    jwk,
    key(alg) {
      let p = cache.get(alg);
      if (!p) {
        p = importJWK(jwk, alg).catch(() => null);
        cache.set(alg, p);
      }
      return p;
    },
  };
}

function parseJwkSet(text: string): JWK[] | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object' || !Array.isArray((body as { keys?: unknown }).keys)) return null;
  const keys = (body as { keys: unknown[] }).keys;
  if (!keys.every((k) => k !== null && typeof k === 'object' && typeof (k as JWK).kty === 'string')) return null;
  return keys as JWK[];
}

export class JwkStore {
  private keys: StoredJwk[] = [];
  private timer: unknown = undefined;
  private stopped = false;
  private readonly deps: Required<Omit<JwkDeps, 'log'>> & Pick<JwkDeps, 'log'>;
  /** The last fetch's outcome (for logs and health). */
  last: FetchOutcome | undefined;
  /** Bumped whenever the key set is replaced (verification results from older sets are not reused). */
  generation = 0;

  constructor(
    readonly url: string,
    deps: JwkDeps = {},
  ) {
    this.deps = {
      fetch: deps.fetch ?? fetch,
      now: deps.now ?? Date.now,
      setTimer:
        deps.setTimer ??
        ((fn, ms) => {
          const t = setTimeout(() => void fn(), ms);
          t.unref();
          return t;
        }),
      clearTimer: deps.clearTimer ?? ((h) => clearTimeout(h as NodeJS.Timeout)),
      timeoutMs: deps.timeoutMs ?? 30_000,
      log: deps.log,
    };
  }

  /** The keys a token may be verified with: those with its `kid` when any has it, else all; never encryption keys. */
  candidates(kid: string | undefined): StoredJwk[] {
    const usable = this.keys.filter((k) => k.jwk.use === undefined || k.jwk.use === 'sig');
    if (kid !== undefined) {
      const byKid = usable.filter((k) => k.jwk.kid === kid);
      if (byKid.length > 0) return byKid;
    }
    return usable;
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * First fetch and schedule. A failure leaves the set empty (tokens are rejected with invalid-jwt) and is retried
   * every minute; the caller may instead refuse to start on `{ok: false}` as the original does.
   */
  async start(): Promise<FetchOutcome> {
    this.stopped = false;
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    const outcome = await this.refresh();
    this.schedule(nextRefreshDelay(outcome, true));
    return outcome;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) this.deps.clearTimer(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number | null): void {
    this.timer = undefined;
    if (ms === null || this.stopped) return;
    this.timer = this.deps.setTimer(async () => {
      if (this.stopped) return;
      const outcome = await this.refresh();
      this.schedule(nextRefreshDelay(outcome, false));
    }, ms);
  }

  /** One fetch: on success the key set is replaced; on failure the previous keys stay. Never throws. */
  async refresh(): Promise<FetchOutcome> {
    const outcome = await this.fetchOnce();
    this.last = outcome;
    if (!outcome.ok) this.deps.log?.('error', outcome.error);
    else if (outcome.nextInMs === null) {
      this.deps.log?.('info', `JWK response from ${this.url} has no parsable Cache-Control (max-age, s-maxage) or Expires header`);
    }
    return outcome;
  }

  private async fetchOnce(): Promise<FetchOutcome> {
    let res: Response;
    let text: string;
    try {
      res = await this.deps.fetch(this.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.deps.timeoutMs),
      });
      if (res.status < 200 || res.status >= 300) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: false, error: `Non-2xx response on fetching JWK from: ${this.url}` };
      }
      text = await readCapped(res);
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      return { ok: false, error: `Error fetching JWK: ${cause?.code ?? cause?.message ?? (e as Error).message}` };
    }
    const keys = parseJwkSet(text);
    if (keys === null) return { ok: false, error: `Error parsing JWK from url: ${this.url}` };
    this.keys = keys.map(storeJwk);
    this.generation += 1;
    return { ok: true, keys: keys.length, nextInMs: expiryFromHeaders((n) => res.headers.get(n), this.deps.now()) };
  }
}
