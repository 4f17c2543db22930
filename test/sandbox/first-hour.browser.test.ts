// The sandbox's first hour, in a real browser (Debian's Chromium through playwright-core),
// against the whole `npm start` stack: the page opens on #website — the channel the welcome
// names — with Worklink's welcome message there; the demo workspace has a stable name and
// dates relative to today (overdue, today, next week); and typing a new task's name is never
// interrupted when the form updates itself ("Already there?" after 3 characters): the field
// keeps focus and every character typed.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WORKSPACE_NAME, firstHourSeed } from '../../src/sandbox/first-hour.js';
import type { SandboxStack } from '../../src/sandbox/start.js';
import { useSandboxBrowser } from '../support/sandbox-browser.js';
import { SureWorkClient } from '../support/sure-work.js';

const demo = useSandboxBrowser('first-hour');
let stack: SandboxStack;
let page: Page;
beforeAll(() => {
  ({ stack, page } = demo());
});

describe('the first hour in the sandbox', () => {
  it('opens on #website with a welcome message there', async () => {
    await page.goto(stack.url);
    await page.getByRole('heading', { name: '# website' }).waitFor();
    const welcome = page
      .getByRole('article', { name: 'Message from Worklink' })
      .filter({ hasText: 'Welcome to the Worklink sandbox' });
    await welcome.waitFor();
    expect(await welcome.textContent()).toContain('/work new');
  });

  it('seeds a stable demo workspace with dates relative to today', async () => {
    const seed = stack.setup.seed!;
    expect(seed.workspaceName).toBe(DEMO_WORKSPACE_NAME);
    const work = new SureWorkClient({ ...stack.worklink.workUrls, apiKey: seed.apiKey });
    const today = firstHourSeed().today!;
    const listed = (
      await Promise.all(seed.projects.map((p) => work.listTasks({ projectId: p.projectId })))
    ).flat();
    const dues = (await Promise.all(listed.map((t) => work.getTask(t.taskId))))
      .map((t) => t.dueDate?.slice(0, 10))
      .filter((d): d is string => Boolean(d));
    const inDays = (d: string) => Math.round((Date.parse(d) - Date.parse(today)) / 86_400_000);
    const offsets = dues.map(inDays);
    expect(offsets.some((o) => o < 0)).toBe(true);
    expect(offsets).toContain(0);
    expect(offsets.some((o) => o >= 5 && o <= 14)).toBe(true);
  });

  it('keeps focus and every typed character while the form updates itself', async () => {
    // The index has read the demo tasks (as it does within minutes), so the hint has matches.
    await stack.worklink.parts.indexRefresh?.runTeam(stack.teamId);
    await page.goto(stack.url);
    await page.getByRole('heading', { name: '# website' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('/work new');
    await box.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New task' });
    const name = dialog.getByLabel('Name');
    await name.waitFor();
    await name.click();
    const typed = 'Draft the sitemap for the blog';
    await name.pressSequentially(typed, { delay: 80 });
    // The form did update itself while typing (the similar-task hint)…
    await dialog
      .getByText('Already there?')
      .waitFor()
      .catch(async (e) => {
        throw new Error(`${e}\n${await dialog.textContent()}\nvalue: ${await name.inputValue()}`);
      });
    // …and the field kept every character and the focus.
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe(typed);
    expect(await dialog.getByLabel('Name').evaluate((n) => n === document.activeElement)).toBe(
      true,
    );
    await page.keyboard.type(' now');
    expect(await dialog.getByLabel('Name').inputValue()).toBe(`${typed} now`);
  });
});
