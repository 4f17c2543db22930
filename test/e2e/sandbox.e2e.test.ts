// The whole product in a real browser, as `npm start` runs it: the embedded service seeded
// with the demo workspace, the real Worklink app, and the sandbox Slack page driven through
// Debian's Chromium. Everything is done as a user would, by clicking and typing in the page:
// create a task through the modal (two assignees, a due date) in #website as Alice; as Bob,
// see the DM, mark the task complete from it and comment on it; list the project's tasks;
// create a project and view it.
//
// Screenshots go to test-results/. The create-task modal and the assignment DM are also the
// README's pictures (docs/screenshots/): they are written when missing, or refreshed with
// WORKLINK_SCREENSHOTS=1, so an ordinary run leaves the committed files alone.

import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { launchSandbox, type SandboxStack } from '../../src/sandbox/start.js';
import { taskComments } from '../../src/service/activity.js';
import { launchChromium } from '../support/browser.js';
import { SureWorkClient } from '../support/sure-work.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SHOTS = join(ROOT, 'test-results');
const README_SHOTS = join(ROOT, 'docs/screenshots');
const TASK_NAME = 'Write the launch blog post';
const DUE = '2026-12-15';
const COMMENT = 'Draft is in the shared folder.';
const PROJECT_NAME = 'Mobile app';

let dataDir: string;
let stack: SandboxStack;
let browser: Browser;
let page: Page;
const logs: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'worklink-e2e-'));
  const config: AppConfig = { slack: { mode: 'sandbox' }, port: 0, dataDir, logLevel: 'info' };
  stack = await launchSandbox(config, {
    port: 0,
    logger: createLogger('info', (line) => logs.push(line)),
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 780 } });
  // A step waits for what a person would wait for; none of them takes long.
  page.setDefaultTimeout(15_000);
  mkdirSync(SHOTS, { recursive: true });
});

// When a step fails, the page and both logs say why (test-results/e2e-failure-*.png, e2e.log).
afterEach(async (ctx) => {
  const failed = ctx.task.result?.state === 'fail' || (ctx.task.result?.errors?.length ?? 0) > 0;
  if (!failed || !page) return;
  const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
  await page.screenshot({ path: join(SHOTS, `e2e-failure-${name}.png`) }).catch(() => {});
});

afterAll(async () => {
  const sandboxLog = stack?.sandbox.state.log.map((e) => `${e.at} ${e.level} ${e.text}`) ?? [];
  const calls = new Map<string, number>();
  for (const c of stack?.sandbox.webApi.calls ?? []) {
    const key = `${c.method}${c.ok ? '' : ` (${c.error})`}`;
    calls.set(key, (calls.get(key) ?? 0) + 1);
  }
  const callLines = [...calls].map(([k, n]) => `${k} ×${n}`);
  writeFileSync(
    join(SHOTS, 'e2e.log'),
    [...logs, '--- sandbox ---', ...sandboxLog, '--- Web API calls ---', ...callLines].join('\n'),
  );
  await browser?.close();
  await stack?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A screenshot in test-results/, optionally also the README's copy. */
async function shot(name: string, readmeName?: string): Promise<void> {
  const path = join(SHOTS, `e2e-${name}.png`);
  await page.screenshot({ path });
  if (!readmeName) return;
  const target = join(README_SHOTS, readmeName);
  if (existsSync(target) && process.env.WORKLINK_SCREENSHOTS !== '1') return;
  mkdirSync(README_SHOTS, { recursive: true });
  copyFileSync(path, target);
}

async function send(text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

async function openChannel(name: string): Promise<void> {
  await page.getByRole('button', { name: `# ${name}` }).click();
  await page.getByRole('heading', { name: `# ${name}` }).waitFor();
}

async function becomeUser(realName: string): Promise<void> {
  await page.getByLabel('You are').selectOption({ label: realName });
}

/** Selects the options whose text starts with each name ("Bob Brown (bob@example.com)"). */
/** Chooses people in a type-ahead (the assignees field): types each name, picks its option. */
async function chooseOptions(dialog: Locator, label: string, names: string[]): Promise<void> {
  const box = dialog.getByRole('combobox', { name: label });
  for (const name of names) {
    await box.pressSequentially(name, { delay: 20 });
    const option = dialog.getByRole('option', { name: new RegExp(`^${name}`) });
    await option.waitFor();
    await option.click();
  }
}

/** The newest message from the app (in the open conversation) that contains `text`. */
function appMessage(text: string | RegExp): Locator {
  return page
    .getByRole('article', { name: 'Message from Worklink' })
    .filter({ hasText: text })
    .last();
}

/**
 * Clicks a modal's submit button and returns what confirmed it: the text of the view it turned
 * into (closed here with its Close button) or of the app's newest message naming `mention`.
 * Errors shown under the fields fail the test with their text.
 */
async function submit(dialog: Locator, button: string, mention: string): Promise<string> {
  await dialog.getByRole('button', { name: button }).click();
  const deadline = Date.now() + 15_000;
  for (;;) {
    const errors = await dialog.locator('.bk-error, .modal-problem').allTextContents();
    if (errors.length > 0) throw new Error(`The modal refused: ${errors.join('; ')}`);
    // Done when the form is gone: closed, or turned into a notice (a view without the button).
    const submitButton = dialog.getByRole('button', { name: button, exact: true });
    if ((await dialog.count()) === 0 || (await submitButton.count()) === 0) {
      const notice = page.getByRole('dialog');
      if ((await notice.count()) > 0) {
        const text = (await notice.last().textContent()) ?? '';
        await notice.last().getByRole('button', { name: 'Close' }).last().click();
        await notice.last().waitFor({ state: 'detached' });
        return text;
      }
      const message = appMessage(mention);
      if ((await message.count()) > 0) return (await message.textContent()) ?? '';
    }
    if (Date.now() > deadline) throw new Error(`Nothing confirmed the ${button} in time.`);
    await page.waitForTimeout(50);
  }
}

/** Fails with the sandbox's own log when something the app called was missing. */
function unknownMethods(): string[] {
  return stack.sandbox.state.log
    .filter((e) => e.text.includes('does not implement'))
    .map((e) => e.text);
}

/** The comments posted on a task, read from the embedded service's database. */
function postedComments(taskId: string): string[] {
  const db = stack.worklink.service?.db;
  if (!db) throw new Error('no embedded service');
  return taskComments(db, taskId)
    .filter((c) => c.Type === 1)
    .map((c) => c.Comment ?? '');
}

/** The demo workspace as the service sees it (to check what the page showed was real). */
function work(): SureWorkClient {
  const seed = stack.setup.seed;
  if (!seed) throw new Error('no seed');
  return new SureWorkClient({ ...stack.worklink.workUrls, apiKey: seed.apiKey });
}

describe('Worklink in the sandbox, through the browser', () => {
  let taskId = '';

  it('creates a task in #website through the modal, with two assignees and a due date', async () => {
    await page.goto(stack.url);
    // The page opens on the channel the welcome names (src/sandbox/first-hour.ts).
    await page.getByRole('heading', { name: '# website' }).waitFor();
    expect(await page.getByLabel('You are').inputValue()).toBe('U0SBALICE');
    await openChannel('website');

    await send('/work new');
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.getByLabel('Name').waitFor();
    // #website is linked to "Website relaunch": the form starts on that project.
    await expect
      .poll(
        async () =>
          // The project field is a type-ahead (project-picker.ts): its box shows the choice.
          await dialog.getByRole('combobox', { name: 'Project' }).inputValue(),
      )
      .toBe('Website relaunch');
    await dialog.getByLabel('Name').fill(TASK_NAME);
    await dialog.getByLabel('Description').fill('Announce the new site on the blog.');
    await chooseOptions(dialog, 'Assignees', ['Bob Brown', 'Carol Chen']);
    await dialog.getByLabel('Due date').fill(DUE);
    await dialog.getByLabel('Due date').blur();
    await shot('create-task-modal', 'create-task-modal.png');
    // The form closes on success; the confirmation is the task's live card, only to its
    // author: in Alice's DM with Worklink.
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    await page.getByRole('button', { name: /^Worklink/ }).click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    await appMessage(TASK_NAME).waitFor();
    const confirmation = (await appMessage(TASK_NAME).textContent()) ?? '';
    expect(confirmation).toMatch(new RegExp(`Alice Adams created #\\d+ ${TASK_NAME}`));
    expect(confirmation).toContain('Website relaunch');
    const websiteId = stack.setup.seed?.projects.find(
      (p) => p.projectName === 'Website relaunch',
    )?.projectId;
    const tasks = await work().listTasks({ projectId: websiteId ?? '' });
    const created = tasks.find((t) => t.taskName === TASK_NAME);
    expect(created).toBeDefined();
    taskId = created?.taskId ?? '';
    // Numbers, not ids, on cards: the task's own number.
    expect(confirmation).toContain(`#${created?.taskNumber}`);
    const task = await work().getTask(taskId);
    expect(task.dueDate?.slice(0, 10)).toBe(DUE);
    const seedUsers = stack.setup.seed?.users ?? [];
    const assignees = (task.taskUsers ?? [])
      .map((u) => seedUsers.find((s) => s.id === u.taskUserId)?.email)
      .sort();
    expect(assignees).toEqual(['bob@example.com', 'carol@example.com']);
    await shot('task-created');
  });

  it('shows Bob the assignment DM, and he marks the task complete from it', async () => {
    await becomeUser('Bob Brown');
    await page.getByRole('button', { name: /^Worklink/ }).click();
    await page.getByRole('tab', { name: 'Messages' }).click();
    const dm = appMessage(TASK_NAME);
    await dm.waitFor();
    await shot('assignment-dm', 'assignment-dm.png');

    await dm.getByRole('button', { name: /complete/i }).click();
    await expect
      .poll(async () => (await work().getTask(taskId)).status, { timeout: 15_000 })
      .toBe(true);
    // The DM turns into the task's card: done, and nothing left to complete.
    await expect.poll(() => dm.getByRole('button', { name: /complete/i }).count()).toBe(0);
    await shot('task-completed');
  });

  it('comments on the done task from its card (Details → Comment → modal)', async () => {
    // A done task's DM offers Reopen and Details; Details shows the current card in a modal.
    const dm = appMessage(TASK_NAME);
    await dm.getByRole('button', { name: 'Details', exact: true }).click();
    const card = page.getByRole('dialog', { name: 'Task details' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Comment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Comment' });
    await dialog.getByLabel('Comment').fill(COMMENT);
    await shot('comment-modal');
    const confirmation = await submit(dialog, 'Post', 'comment');
    expect(confirmation).toContain(TASK_NAME);
    expect(postedComments(taskId).some((c) => c.includes(COMMENT))).toBe(true);
  });

  it('lists the project’s tasks in #website', async () => {
    await becomeUser('Alice Adams');
    await openChannel('website');
    await send('/work list all');
    const list = appMessage('Draft the sitemap');
    await list.waitFor();
    expect(await list.textContent()).toContain(TASK_NAME);
    await shot('task-list');
  });

  it('creates a project through the modal and views it', async () => {
    await send('/work project new');
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Name').waitFor();
    await dialog.getByLabel('Name').fill(PROJECT_NAME);
    await dialog.getByLabel('Customer').selectOption({ label: 'Acme Corp' });
    await dialog.getByLabel('Start date').fill('2026-12-01');
    await dialog.getByLabel('Due date').fill('2027-03-31');
    await shot('project-modal');
    const confirmation = await submit(dialog, 'Create', PROJECT_NAME);
    const projectId = /[0-9a-f]{24}/.exec(confirmation)?.[0] ?? '';
    expect(projectId).toMatch(/^[0-9a-f]{24}$/);
    expect((await work().getProject(projectId)).projectName).toBe(PROJECT_NAME);

    await send(`/work project ${projectId}`);
    const card = page
      .getByRole('article', { name: 'Message from Worklink' })
      .last()
      .filter({ hasText: PROJECT_NAME });
    await card.waitFor();
    expect(await card.textContent()).toContain('Acme Corp');
    await shot('project-card');
  });

  it('needed nothing the sandbox lacks, and the app answered every request well', () => {
    expect(unknownMethods()).toEqual([]);
    const trouble = stack.sandbox.state.log.filter((e) => e.level !== 'info').map((e) => e.text);
    expect(trouble).toEqual([]);
  });
});
