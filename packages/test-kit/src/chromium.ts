/**
 * The browser the end-to-end tests drive: Debian's chromium (or `CHROMIUM_PATH`), headless, with
 * its background traffic off so a test sees only what the page does.
 */
import { existsSync } from 'node:fs';

/** Chromium's flags for a test run: headless, no sandbox (containers), no updates or sync. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Chromium's path (`CHROMIUM_PATH`, else /usr/bin/chromium); an error that says how to install it when missing. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`${path} is missing: apt-get install -y chromium.`);
  return path;
}
