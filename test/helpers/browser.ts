import { existsSync } from 'node:fs';
import { Browser, chromium } from 'playwright-core';

/** Debian's Chromium by default; CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The browser suites need a Chromium binary, which `npm ci` does not install: without one they are skipped. */
export const hasChromium = existsSync(CHROMIUM_PATH);

// Chromium and axe-core on two cores shared with another run of the suites take minutes, not seconds:
// a browser suite's tests get 3 minutes (Jest's 30 s is for the HTTP suites), as do those that say so.
if (typeof jest !== 'undefined') jest.setTimeout(180_000);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
