// A real Chromium for the console's browser tests: Debian's `chromium` (or CHROMIUM_PATH) driven by playwright-core,
// which downloads nothing. Every console message, page error, failed request and HTTP error status is recorded so
// tests can assert the page had none beyond the ones they caused on purpose. withConsole is the console tests'
// shared set-up: the built console, an engine and a browser, closed whatever happens.
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildConsole, consoleBuilt } from '../../console/build.mjs';
import { startTestEngine, type TestEngine, type TestEngineOptions } from './engine.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);

export interface BrowserSession {
  page: Page;
  /** console errors/warnings and uncaught page errors, as text */
  consoleProblems: string[];
  /** requests that failed at the network level */
  failedRequests: string[];
  /** responses with status >= 400, as "STATUS METHOD PATH" */
  errorResponses: string[];
  close(): Promise<void>;
}

export async function openBrowser(): Promise<BrowserSession> {
  const profile = mkdtempSync(path.join(tmpdir(), 'engine-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const s: BrowserSession = {
    page,
    consoleProblems: [],
    failedRequests: [],
    errorResponses: [],
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') s.consoleProblems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => s.consoleProblems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => s.failedRequests.push(`${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) s.errorResponses.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  return s;
}

/** A console browser test: serial where Chromium is installed (CI installs it: .ci/run), skipped elsewhere. */
export const browserTest = chromiumAvailable() || process.env.CI ? test.serial : test.serial.skip;

/**
 * Builds the console if it is not built yet, starts an engine with `options` and opens a browser, runs `body` with
 * them, and closes the browser, then the engine, whether `body` passed or threw.
 */
export async function withConsole(options: TestEngineOptions, body: (e: TestEngine, b: BrowserSession) => Promise<void>): Promise<void> {
  if (!(await consoleBuilt())) await buildConsole({ quiet: true });
  const e = await startTestEngine(options);
  try {
    const b = await openBrowser();
    try {
      await body(e, b);
    } finally {
      await b.close();
    }
  } finally {
    await e.close();
  }
}

/** The page logged no console problem, and no request failed or answered an HTTP error. */
export function assertCleanPage(t: ExecutionContext, b: BrowserSession): void {
  t.deepEqual(b.failedRequests, []);
  t.deepEqual(b.errorResponses, []);
  t.deepEqual(b.consoleProblems, []);
}

/** Holds the page's requests to `url` whose body contains `marker` until `release()`; `sent` resolves when one is
 * held, so a test can change the page while that request is in flight. `stop()` removes the hold. */
export async function holdRequest(page: Page, url: string, marker: string) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let seen!: () => void;
  const sent = new Promise<void>((r) => (seen = r));
  await page.route(url, async (route) => {
    if (route.request().postData()?.includes(marker)) {
      seen();
      await released;
    }
    await route.continue();
  });
  return { sent, release, stop: () => page.unroute(url) };
}
