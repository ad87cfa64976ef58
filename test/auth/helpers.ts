// Test helpers for auth: keys, hand-made tokens (including malformed ones) and loopback HTTP servers.
import { createHmac, createPrivateKey, sign as rsaSign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportSPKI, generateKeyPair } from 'jose';

export const NS = 'https://engine.io/jwt/claims';
/** A fixed "now": 2026-01-01T00:00:00Z. */
export const NOW_MS = Date.UTC(2026, 0, 1);
export const NOW = NOW_MS / 1000;
export const HS_SECRET = 'a-very-long-shared-secret-of-at-least-32-chars!';

const b64 = (s: string | Buffer): string => Buffer.from(s).toString('base64url');

/** Standard claims for a user that may be `user` or `editor`. */
export function userClaims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    sub: '42',
    iat: NOW - 60,
    exp: NOW + 3600,
    [NS]: { 'x-engine-allowed-roles': ['user', 'editor'], 'x-engine-default-role': 'user', 'x-engine-user-id': '42' },
    ...extra,
  };
}

/** Signs header.payload (either may be a raw string) with HMAC. */
export function hsToken(payload: unknown, secret: string | Buffer = HS_SECRET, alg = 'HS256', headerExtra: Record<string, unknown> = {}): string {
  const header = b64(JSON.stringify({ alg, typ: 'JWT', ...headerExtra }));
  const body = typeof payload === 'string' ? b64(payload) : b64(JSON.stringify(payload));
  const hash = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' }[alg] ?? 'sha256';
  const sig = createHmac(hash, secret).update(`${header}.${body}`).digest('base64url');
  return `${header}.${body}.${sig}`;
}

export function rsToken(payload: unknown, privateKey: KeyObject, alg = 'RS512', headerExtra: Record<string, unknown> = {}): string {
  const header = b64(JSON.stringify({ alg, typ: 'JWT', ...headerExtra }));
  const body = b64(JSON.stringify(payload));
  const hash = { RS256: 'sha256', RS384: 'sha384', RS512: 'sha512' }[alg] ?? 'sha512';
  const sig = rsaSign(hash, Buffer.from(`${header}.${body}`), privateKey).toString('base64url');
  return `${header}.${body}.${sig}`;
}

export function noneToken(payload: unknown): string {
  return `${b64(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64(JSON.stringify(payload))}.`;
}

export interface RsaPair {
  privateKey: KeyObject;
  publicPem: string;
}

export async function rsaPair(alg = 'RS512'): Promise<RsaPair> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const { exportPKCS8 } = await import('jose');
  const pkcs8 = await exportPKCS8(privateKey);
  return { privateKey: createPrivateKey(pkcs8), publicPem: await exportSPKI(publicKey) };
}

export interface Loopback {
  url: string;
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 with an OS-chosen port. */
export async function loopback(handler: http.RequestListener): Promise<Loopback> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL nothing listens on: a server is opened, its port noted, and closed again. */
export async function deadUrl(): Promise<string> {
  const lb = await loopback((_req, res) => res.end());
  await lb.close();
  return lb.url;
}

export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });
}
