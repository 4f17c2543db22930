// Reactions in the sandbox page, in a real browser (Debian's Chromium through playwright-core)
// against the whole `npm start` stack: with `/work feed on sync` in #website, Alice replies in
// the thread of a task's feed card; Worklink makes the reply a comment and adds its 📝 reaction
// (reactions.add), which the page draws under the reply as Slack does: the emoji, its count,
// and who reacted on hover.

import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxStack } from '../../src/sandbox/start.js';
import { send, useSandboxBrowser } from '../support/sandbox-browser.js';

const TASK = 'Check the footer links';
const REPLY = 'The privacy link is missing';

const demo = useSandboxBrowser('reactions');
let stack: SandboxStack;
let page: Page;
beforeAll(() => {
  ({ stack, page } = demo());
});

/** A message everyone in the channel sees (not an ephemeral answer) with this text. */
function shared(author: string, text: string): Locator {
  return page
    .getByRole('article', { name: `Message from ${author}` })
    .filter({ hasText: text })
    .filter({ hasNotText: 'Only visible to you' });
}

describe('reactions in the sandbox page', () => {
  it('shows Worklink’s 📝 under a thread reply that became a comment', async () => {
    await page.goto(stack.url);
    await page.getByRole('heading', { name: '# website' }).waitFor();
    await send(page, '/work feed on sync');
    await shared('Worklink', 'task feed on').first().waitFor();
    await send(page, `/work add ${TASK} @bob`);
    const card = shared('Worklink', TASK).first();
    await card.waitFor();

    await card.hover();
    await card.getByRole('button', { name: 'Reply in thread' }).click();
    await send(page, REPLY);
    const reply = shared('Alice Adams', REPLY);
    await reply.waitFor();

    const reactions = reply.getByRole('list', { name: 'Reactions' });
    const memo = reactions.getByRole('listitem', { name: 'memo: Worklink' });
    await memo.waitFor();
    expect(await memo.textContent()).toBe('📝1');
    expect(await memo.getAttribute('title')).toBe('Worklink reacted with :memo:');
    await page.screenshot({ path: 'test-results/sandbox-reaction.png' });
    // Only the reply carries it: the card above it has no reactions.
    expect(await card.getByRole('list', { name: 'Reactions' }).count()).toBe(0);
    const trouble = stack.sandbox.state.log.filter((e) => e.level !== 'info').map((e) => e.text);
    expect(trouble).toEqual([]);
  });
});
