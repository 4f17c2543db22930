/**
 * "Open in …" on every task surface, against the embedded service: each URL is followed to
 * the service's own read-only page, which must name the task. Pages need the signature of a
 * key of the task's workspace (src/workapi/page-links.ts): a wrong or foreign one is a 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoWorkspace } from '../../../src/service/index.js';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { apiKeyHash, pageUrl } from '../../../src/workapi/page-links.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
let website: string;
const NAME = 'Ship the <b>release</b> & notes';

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', website, h.users.alice.id);
});
afterAll(() => h?.stop());

/** Every URL in a message or view, from buttons and overflow options. */
function urls(x: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, inner] of Object.entries(v)) {
        if (k === 'url' && typeof inner === 'string') found.push(inner);
        else walk(inner);
      }
    }
  };
  walk(x);
  return found;
}

async function page(url: string) {
  const res = await fetch(url);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

async function expectTaskPage(url: string | undefined, what: string) {
  expect(url, `${what} has an Open in URL`).toBeDefined();
  const p = await page(url!);
  expect(p.status, what).toBe(200);
  expect(p.type).toMatch(/^text\/html/);
  // The name, HTML-escaped: the page never carries markup from the task.
  expect(p.text).toContain('Ship the &lt;b&gt;release&lt;/b&gt; &amp; notes');
  expect(p.text).not.toContain('<b>release</b>');
}

describe('Open in … on every task surface', () => {
  let taskId: string;

  it('the live card of `/work add` and the card of `/work task`', async () => {
    await h.slack.slashCommand(
      `add ${NAME.replace('&', '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')} @bob due:2020-01-01`,
    );
    const post = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL' && JSON.stringify(c.body).includes('Ship the'),
    );
    const liveUrl = urls(post.body.blocks)[0];
    await expectTaskPage(liveUrl, 'the live card');
    taskId = /\/pages\/task\/([0-9a-f]{24})/.exec(liveUrl!)?.[1] ?? '';
    expect(taskId).toHaveLength(24);
    // The live card says Details, not Open.
    expect(JSON.stringify(post.body.blocks)).toContain('"Details"');

    const card = await h.replyTo(await h.slack.slashCommand(`task ${taskId}`));
    await expectTaskPage(urls(card.blocks)[0], 'the task card');
  });

  it('list rows, my tasks, App Home and the digest', async () => {
    const list = await h.replyTo(await h.slack.slashCommand('list'));
    const rowUrl = urls(list.blocks).find((u) => u.includes(taskId));
    await expectTaskPage(rowUrl, 'a list row');

    const mine = await h.replyTo(
      await h.slack.slashCommand('list mine', { userId: h.users.bob.id }),
    );
    await expectTaskPage(
      urls(mine.blocks).find((u) => u.includes(taskId)),
      'my tasks',
    );

    await h.slack.event({ type: 'app_home_opened', user: h.users.bob.id, tab: 'home' });
    const home = await h.fake.waitForCall(
      'views.publish',
      (c) => c.body.user_id === h.users.bob.id && JSON.stringify(c.body).includes(taskId),
    );
    await expectTaskPage(
      urls(home.body.view).find((u) => u.includes(taskId)),
      'App Home',
    );

    const digest = await h.replyTo(
      await h.slack.slashCommand('digest', { userId: h.users.bob.id }),
    );
    await expectTaskPage(
      urls(digest.blocks).find((u) => u.includes(taskId)),
      'the digest',
    );
  });

  it('pick list rows link to the task', async () => {
    await h.slack.slashCommand('add Ship the docs');
    await h.fake.waitForCall('chat.postMessage', (c) =>
      JSON.stringify(c.body).includes('Ship the docs'),
    );
    const pick = await h.replyTo(await h.slack.slashCommand('task ship the'));
    expect(pick.text).toMatch(/tasks match/);
    await expectTaskPage(
      urls(pick).find((u) => u.includes(taskId)) ??
        /<(http[^|>]+)\|[^>]*release/.exec(JSON.stringify(pick.blocks))?.[1],
      'a pick list row',
    );
  });

  it('Details from App Home opens the current card in a modal', async () => {
    const res = await h.slack.blockAction(
      { actionId: ACTION.taskOpen, value: taskId },
      { userId: h.users.bob.id, view: { id: 'V_HOME', type: 'home' } },
    );
    expect(res.status).toBe(200);
    const opened = await h.fake.waitForCall('views.open', (c) =>
      JSON.stringify(c.body).includes('Ship the'),
    );
    expect(JSON.stringify(opened.body)).toContain('Task details');
  });
});

describe('the pages themselves', () => {
  it('need the signature of a key of the task’s workspace', async () => {
    const { taskId } = (await h.work.createTask({ projectId: website, name: 'Private' }))!;
    const origin = new URL(h.service.baseUrl).origin;
    const good = pageUrl(origin, 'task', taskId, apiKeyHash(h.seed.apiKey));
    expect((await page(good)).status).toBe(200);
    expect((await page(good.replace(/sig=.*/, 'sig=forged'))).status).toBe(404);
    expect((await page(good.replace(/\?sig=.*/, ''))).status).toBe(404);
    // Another workspace's key signs nothing of this one.
    const other = seedDemoWorkspace(h.service.db);
    const foreign = pageUrl(origin, 'task', taskId, apiKeyHash(other.apiKey));
    expect((await page(foreign)).status).toBe(404);
    // The project page lists its open tasks, each linked to its own signed page.
    const project = await page(pageUrl(origin, 'project', website, apiKeyHash(h.seed.apiKey)));
    expect(project.status).toBe(200);
    expect(project.text).toContain('Private');
    const link = /href="(\/pages\/task\/[^"]+)"/.exec(project.text)?.[1]?.replace(/&amp;/g, '&');
    expect(link).toBeDefined();
    expect((await page(`${origin}${link}`)).status).toBe(200);
  });
});
