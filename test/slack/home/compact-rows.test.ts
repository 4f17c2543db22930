/**
 * Compact rows, through signed requests: on App Home and in the digest each task row is one
 * section with ONE accessory — an overflow menu holding Mark complete, Details (and Comment on
 * Home) and "Open in …" — instead of a line plus a row of three buttons. What the buttons did
 * still works from the menu: Mark complete completes (Home is published again without the
 * task), Details opens the card, Comment opens the comment form naming its task.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { taskRowMenu } from '../../../src/slack/tasks/card/row-menu.js';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
let website: string;
const ids: Record<string, string> = {};

interface Block {
  type: string;
  block_id?: string;
  text?: { text: string };
  accessory?: {
    type: string;
    action_id?: string;
    options?: { text: { text: string }; value: string; url?: string }[];
  };
  elements?: { type: string; action_id?: string }[];
}

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  const work = h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!);
  const alice = h.seed.users.find((u) => u.email.startsWith('alice'))!.id;
  const today = new Date().toISOString().slice(0, 10);
  for (const name of ['Compact one', 'Compact two', 'Compact three']) {
    const task = await work.createTask({
      projectId: website,
      name,
      taskUsers: [alice],
      dueDate: today,
    });
    if (!task) throw new Error(`${name} was not created`);
    ids[name] = task.taskId;
  }
  await h.waitFor(
    async () =>
      (await h.worklink.store.taskIndex.get(h.teamId, ids['Compact three']!)) !== undefined,
  );
});
afterAll(() => h?.stop());

async function publishedHome(): Promise<{ id: string; blocks: Block[] }> {
  h.fake.reset();
  await h.slack.event({ type: 'app_home_opened', user: h.users.alice.id, tab: 'home' });
  const call = await h.fake.waitForCall('views.publish');
  return { id: 'V_HOME', blocks: (call.body.view as { blocks: Block[] }).blocks };
}

const rowOf = (blocks: Block[], name: string) =>
  blocks.find((b) => b.type === 'section' && b.text?.text.includes(`*${name}*`));

/** Picks `value` in a Home row's menu, as Slack sends it from the Home tab. */
function pickOnHome(value: string) {
  return h.slack.blockAction(
    { actionId: ACTION.homeTaskMenu, type: 'overflow', selectedOption: { value } },
    { view: { id: 'V_HOME', type: 'home' } },
  );
}

it('gives each Home row one menu, and the menu does what the buttons did', async () => {
  const home = await publishedHome();
  const row = rowOf(home.blocks, 'Compact one');
  expect(row?.accessory?.type).toBe('overflow');
  expect(row?.accessory?.action_id).toBe(ACTION.homeTaskMenu);
  expect(row?.accessory?.options?.map((o) => o.text.text)).toEqual([
    'Mark complete',
    'Details',
    'Comment',
    'Open in browser',
  ]);
  expect(row?.accessory?.options?.at(-1)?.url).toMatch(/^https?:/);
  // No row of buttons under the tasks any more.
  expect(JSON.stringify(home.blocks)).not.toContain(ACTION.homeTaskComplete);
  expect(
    home.blocks.filter((b) => b.block_id?.startsWith('home_task_') && b.type === 'actions'),
  ).toEqual([]);

  // Details: the card, in a modal.
  let res = await pickOnHome(ids['Compact one']!);
  expect(res.status).toBe(200);
  const details = await h.fake.waitForCall(
    'views.open',
    (c) => c.body.trigger_id === res.triggerId,
  );
  expect(JSON.stringify(details.body.view)).toContain('*Compact one*');

  // Comment: the comment form, naming its task.
  res = await pickOnHome(`comment:${ids['Compact one']}`);
  const form = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  expect((form.body.view as { callback_id: string }).callback_id).toBe(VIEW.taskComment);
  expect(JSON.stringify(form.body.view)).toContain('Compact one');

  // Mark complete: done in the service, and Home published again without it.
  h.fake.reset();
  res = await pickOnHome(`complete:${ids['Compact one']}`);
  const again: RecordedCall = await h.fake.waitForCall('views.publish');
  expect(JSON.stringify(again.body.view)).not.toContain('Compact one');
  expect(JSON.stringify(again.body.view)).toContain('Compact two');
  expect((await h.work.getTask(ids['Compact one']!)).status).toBe(true);
});

it('gives each digest row one menu; its Mark complete completes the task', async () => {
  h.fake.reset();
  const res = await h.slack.slashCommand('digest');
  const digest = await h.replyTo(res);
  const blocks = digest.blocks as Block[];
  const row = rowOf(blocks, 'Compact two');
  expect(row?.accessory?.type).toBe('overflow');
  expect(row?.accessory?.action_id).toBe(ACTION.taskRowMenu);
  expect(row?.accessory?.options?.map((o) => o.text.text)).toEqual([
    'Mark complete',
    'Details',
    'Open in browser',
  ]);
  expect(blocks.filter((b) => b.type === 'actions')).toEqual([]);

  const pick = await h.slack.blockAction({
    actionId: ACTION.taskRowMenu,
    type: 'overflow',
    selectedOption: { value: `complete:${ids['Compact two']}` },
  });
  expect(pick.status).toBe(200);
  await h.waitFor(async () => (await h.work.getTask(ids['Compact two']!)).status === true);
});

it('keeps a row menu within Slack’s limits: an option’s text at most 75 characters', () => {
  const label = `Open in ${'Very Long Service Name '.repeat(6)}`;
  const menu = taskRowMenu({ taskId: 't1', open: { label, url: 'https://work.example/t1' } }, [
    'complete',
    'details',
    'comment',
  ]);
  expect(menu.type).toBe('overflow');
  const texts = menu.type === 'overflow' ? menu.options.map((o) => o.text.text) : [];
  expect(texts).toHaveLength(4);
  for (const t of texts) expect(t.length).toBeLessThanOrEqual(75);
  // Details alone, with no address: a plain button.
  expect(taskRowMenu({ taskId: 't1' }).type).toBe('button');
});
