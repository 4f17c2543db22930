// "Add to task as comment" completed in the `npm start` demo, in a real browser (Debian's
// Chromium through playwright-core): the whole product (embedded service with the demo
// workspace, the Worklink app, the sandbox page). Alice posts a message in #website, runs the
// message shortcut, types into the task picker (an external_select, answered by the app through
// a signed block_suggestion), chooses the task, posts, and the comment is on the task as the
// service's own HTTP API reports it.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxStack } from '../../src/sandbox/start.js';
import { send, useSandboxBrowser } from '../support/sandbox-browser.js';
import { SureWorkClient } from '../support/sure-work.js';

const TASK_NAME = 'Draft the sitemap';
const MESSAGE = 'The footer links should go in the sitemap too.';

const demo = useSandboxBrowser('comment-picker');
let stack: SandboxStack;
let page: Page;
beforeAll(() => {
  ({ stack, page } = demo());
});

function work(): SureWorkClient {
  const seed = stack.setup.seed;
  if (!seed) throw new Error('no seed');
  return new SureWorkClient({ ...stack.worklink.workUrls, apiKey: seed.apiKey });
}

describe('Add to task as comment, in the sandbox page', () => {
  it('finds the task by typing, and posts the message as its comment', async () => {
    const website = stack.setup.seed?.projects.find((p) => p.projectName === 'Website relaunch');
    const tasks = await work().listTasks({ projectId: website?.projectId ?? '' });
    const taskId = tasks.find((t) => t.taskName === TASK_NAME)?.taskId ?? '';
    expect(taskId).toMatch(/^[0-9a-f]{24}$/);

    await page.goto(stack.url);
    await page.getByRole('button', { name: '# website' }).click();
    await page.getByRole('heading', { name: '# website' }).waitFor();
    // Listing the project is how the app first learns its tasks (the index), as a user would.
    await send(page, '/work list all');
    await page
      .getByRole('article', { name: 'Message from Worklink' })
      .filter({ hasText: TASK_NAME })
      .waitFor();
    await send(page, MESSAGE);
    const message = page
      .getByRole('article', { name: 'Message from Alice Adams' })
      .filter({ hasText: MESSAGE });
    await message.waitFor();

    await message.getByLabel('Message shortcuts').click();
    await message.getByRole('menuitem', { name: 'Add to task as comment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add as comment' });
    const picker = dialog.getByRole('combobox', { name: 'Task' });
    await picker.waitFor();
    // The message's text is already the comment.
    expect(await dialog.getByLabel('Comment').inputValue()).toBe(MESSAGE);

    await picker.pressSequentially('sitem', { delay: 30 });
    const option = dialog.getByRole('option', { name: new RegExp(TASK_NAME) });
    await option.waitFor();
    expect(await option.textContent()).toContain('Website relaunch');
    await option.click();
    expect(await picker.inputValue()).toContain(TASK_NAME);

    await dialog.getByRole('button', { name: 'Post', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });

    // The service's own answer: an update that changes nothing returns the task's comments.
    await expect
      .poll(async () => {
        const task = await work().updateTask(taskId, { projectId: website?.projectId ?? '' });
        return (task.Comments ?? []).map((c) => c.Comment ?? '').join('\n');
      })
      .toContain(MESSAGE);
    const trouble = stack.sandbox.state.log.filter((e) => e.level !== 'info').map((e) => e.text);
    expect(trouble).toEqual([]);
  });
});
