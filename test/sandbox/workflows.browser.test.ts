// "Create a task" run from the sandbox page's Workflows panel, in a real browser (Debian's
// Chromium through playwright-core), against the whole `npm start` demo: the panel sends the
// app a signed `function_executed` event, the app creates the task and ends the step with
// functions.completeSuccess, and the panel shows its outputs — the task is in the service.
// A step with a bad input shows the app's functions.completeError sentence instead.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxStack } from '../../src/sandbox/start.js';
import { useSandboxBrowser } from '../support/sandbox-browser.js';
import { SureWorkClient } from '../support/sure-work.js';

const TITLE = 'Book the launch venue';

const demo = useSandboxBrowser('workflows', { width: 1200, height: 900 });
let stack: SandboxStack;
let page: Page;
beforeAll(() => {
  ({ stack, page } = demo());
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
