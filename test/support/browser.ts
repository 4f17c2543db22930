/**
 * Debian's Chromium, driven by playwright-core, for the browser tests. `npm test` installs it
 * first when it is missing (scripts/ensure-chromium.sh); CHROMIUM_PATH points elsewhere.
 */
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // The background-networking flags stop Chromium calling out to hosts this machine cannot reach.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
}
