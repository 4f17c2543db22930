// "Create a task" run from the sandbox page's Workflows panel, in a real browser (Debian's
// Chromium through playwright-core), against the whole `npm start` demo: the panel sends the
// app a signed `function_executed` event, the app creates the task and ends the step with
// functions.completeSuccess, and the panel shows its outputs — the task is in the service.
// A step with a bad input shows the app's functions.completeError sentence instead.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { launchSandbox, type SandboxStack } from '../../src/sandbox/start.js';
import { launchChromium } from '../support/browser.js';
import { SureWorkClient } from '../support/sure-work.js';

const SHOTS = 'test-results';
const TITLE = 'Book the launch venue';

let dataDir: string;
let stack: SandboxStack;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'worklink-workflows-'));
  const config: AppConfig = { slack: { mode: 'sandbox' }, port: 0, dataDir, logLevel: 'warn' };
  stack = await launchSandbox(config, { port: 0, logger: createLogger('warn', () => {}) });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.setDefaultTimeout(15_000);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !page) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'workflows-failure.png') }).catch(() => {});
});

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the Workflows panel', () => {
  it('runs “Create a task” and shows its outputs; the task is in the service', async () => {
    const seed = stack.setup.seed!;
    const website = seed.projects.find((p) => p.projectName === 'Website relaunch')!;
    await page.goto(stack.url);
    await page.getByRole('button', { name: 'Run a workflow step…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workflows' });
    await expect.poll(() => dialog.getByLabel('Step').inputValue()).toBe('create_task');
    await dialog.getByLabel('Project (required)').fill(website.projectId);
    await dialog.getByLabel('Title (required)').fill(TITLE);
    await dialog.getByLabel('Assignees').selectOption({ label: 'Bob Brown' });
    await dialog.getByLabel('Priority').fill('High');
    // "Created by" starts as the person using the page (Alice).
    expect(await dialog.getByLabel('Created by').inputValue()).not.toBe('');
    await dialog.getByRole('button', { name: 'Run step' }).click();

    await dialog.getByRole('heading', { name: 'The step completed' }).waitFor();
    const outputs = dialog.getByRole('definition');
    await expect.poll(() => outputs.allTextContents()).toContain(TITLE);
    const taskId = (await outputs.allTextContents()).find((t) => /^[0-9a-f]{24}$/.test(t));
    expect(taskId).toBeDefined();

    const work = new SureWorkClient({ ...stack.worklink.workUrls, apiKey: seed.apiKey });
    const task = await work.getTask(taskId ?? '');
    expect(task.taskName).toBe(TITLE);
    expect(task.projectId).toBe(website.projectId);
    expect(task.priority).toBe('2');
    const bob = seed.users.find((u) => u.email === 'bob@example.com')!;
    expect((task.taskUsers ?? []).map((u) => u.taskUserId)).toEqual([bob.id]);
  });

  it('shows the error of a step the app failed', async () => {
    const dialog = page.getByRole('dialog', { name: 'Workflows' });
    await dialog.getByLabel('Project (required)').fill('No such project here');
    await dialog.getByLabel('Title (required)').fill('Never made');
    await dialog.getByRole('button', { name: 'Run step' }).click();
    await dialog.getByRole('heading', { name: 'The step failed' }).waitFor();
    expect(await dialog.getByRole('alert').textContent()).toContain(
      'No project named “No such project here”',
    );
  });
});
