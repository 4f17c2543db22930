// A task link posted in the `npm start` demo, in a real browser (Debian's Chromium through
// playwright-core): the sandbox sends the app link_shared, the app answers chat.unfurl with a
// task Work Object, and the page shows the preview card under the message; its title opens
// the side panel (entity_details_requested → entity.presentDetails) with the whole task.

import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxStack } from '../../src/sandbox/start.js';
import { send, useSandboxBrowser } from '../support/sandbox-browser.js';

const demo = useSandboxBrowser('link-preview');
let stack: SandboxStack;
let page: Page;
beforeAll(() => {
  ({ stack, page } = demo());
});

describe('a task link in the sandbox page', () => {
  it('unfurls to a task preview card, and its title opens the side panel', async () => {
    await page.goto(stack.url);
    await page.getByRole('button', { name: '# website' }).click();
    await page.getByRole('heading', { name: '# website' }).waitFor();
    await send(page, '/work add Preview this task');
    const card = page
      .getByRole('article', { name: 'Message from Worklink' })
      .filter({ hasText: 'Preview this task' });
    await card.waitFor();
    // The card's "Open in …" button is the task's address.
    const url = await card.getByRole('button', { name: /^Open in/ }).getAttribute('data-url');
    expect(url).toMatch(/\/pages\/task\/[0-9a-f]{24}\?sig=/);

    await send(page, `Have a look: ${url}`);
    const preview = page.getByRole('region', { name: 'Preview: Preview this task' });
    await preview.waitFor();
    await expect(preview.textContent()).resolves.toMatch(/#\d+ Preview this task/);
    await expect(preview.textContent()).resolves.toContain('Status');

    await preview.getByRole('button', { name: /Preview this task/ }).click();
    const panel = page.getByRole('complementary', { name: /^Details: Preview this task/ });
    await panel.waitFor();
    await expect(panel.textContent()).resolves.toContain('Website relaunch');
  });
});
