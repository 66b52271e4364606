/**
 * Headless Debian chromium for the HTML report tests, driven by playwright-core with the
 * system executable and a fresh profile. Every request that is not a file:// load is
 * aborted and recorded, so a test can fail when a report reaches for the network.
 */
import { existsSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { tempFolderOwnedByCaller } from '../../src/datasets/test-support/temp-folders.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface OpenedPage {
  readonly page: Page;
  /** Console errors and uncaught exceptions, in order. */
  readonly errors: string[];
  /** URLs of the requests this page made, in order. */
  readonly requests: string[];
}

export interface TestBrowser {
  open(file: string, options?: { readonly colorScheme?: 'light' | 'dark' }): Promise<OpenedPage>;
  /** A page at an address `launchBrowser`'s `allowOrigin` lets through (a local server). */
  openUrl(url: string, options?: { readonly colorScheme?: 'light' | 'dark' }): Promise<OpenedPage>;
  /** URLs of requests that were blocked (anything but file:// and the allowed origin). */
  readonly blocked: string[];
  close(): Promise<void>;
}

export async function launchBrowser(
  options: { readonly allowOrigin?: () => string | null } = {},
): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`the HTML report tests need Debian's chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  const profile = tempFolderOwnedByCaller('dk-chromium-');
  const context: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1100, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const blocked: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    const origin = options.allowOrigin?.() ?? null;
    if (origin !== null && new URL(url).origin === origin) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const openUrl = async (url: string, options: { readonly colorScheme?: 'light' | 'dark' } = {}) => {
    const page = await context.newPage();
    if (options.colorScheme !== undefined) await page.emulateMedia({ colorScheme: options.colorScheme });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url, { waitUntil: 'load' });
    return { page, errors, requests };
  };
  return {
    blocked,
    openUrl,
    open: (file, options = {}) => openUrl(pathToFileURL(file).href, options),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
