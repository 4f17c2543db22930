/**
 * The whole `npm start` stack (embedded service with the demo workspace, the Worklink app, the
 * sandbox page) and one page of Debian's Chromium on it, for the browser tests. A failing test
 * leaves a screenshot in test-results/<name>-failure.png.
 *
 *   const demo = useSandboxBrowser('first-hour');
 *   it('…', async () => { const { stack, page } = demo(); await page.goto(stack.url); });
 *
 * `send(page, text)` types a line into the composer and sends it, as a person does.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { launchSandbox, type SandboxStack } from '../../src/sandbox/start.js';
import { launchChromium } from './browser.js';

const SHOTS = 'test-results';

export function useSandboxBrowser(
  name: string,
  viewport = { width: 1200, height: 780 },
): () => { stack: SandboxStack; page: Page } {
  let dataDir: string | undefined;
  let stack: SandboxStack | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `worklink-${name}-`));
    const config: AppConfig = { slack: { mode: 'sandbox' }, port: 0, dataDir, logLevel: 'warn' };
    stack = await launchSandbox(config, { port: 0, logger: createLogger('warn', () => {}) });
    browser = await launchChromium();
    page = await browser.newPage({ viewport });
    page.setDefaultTimeout(15_000);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !page) return;
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}-failure.png`) }).catch(() => {});
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return () => {
    if (!stack || !page) throw new Error('The sandbox and its page start in beforeAll.');
    return { stack, page };
  };
}

/** Types `text` into the page's composer and sends it with Enter (a message or a command). */
export async function send(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}
