/**
 * True words, through signed requests: a pick list gives the true count ("11 tasks match;
 * showing 5 — add a word"), and `/work done` on a task that is done already says so and
 * offers Reopen, instead of "No open task matches … Create it with /work new".
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { answeredView, linkChannel, stateFor, type ViewJson, viewOf } from './helpers.js';

let h: Harness;
let projectId: string;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  projectId = await linkChannel(h, 0);
});
afterAll(() => h?.stop());

async function say(text: string) {
  const res = await h.slack.slashCommand(text);
  expect(res.status).toBe(200);
  return h.replyTo(res);
}

it('counts every match, and says how many the pick list shows', async () => {
  for (let i = 1; i <= 11; i++) await h.slack.slashCommand(`add Sprint chore ${i}`);
  await h.waitFor(
    async () =>
      (await h.worklink.store.taskIndex.search(h.teamId, 'sprint chore', { limit: 50 })).length ===
      11,
  );
  const reply = await say('task sprint chore');
  expect(reply.text).toBe('11 tasks match; showing 5 — add a word to narrow it.');
  expect(JSON.stringify(reply.blocks).match(/task_pick_\d/g)).toHaveLength(5);
  // All shown: the plain question.
  await h.slack.slashCommand('add Unique gadget one');
  await h.slack.slashCommand('add Unique gadget two');
  await h.waitFor(
    async () => (await h.worklink.store.taskIndex.search(h.teamId, 'unique gadget')).length === 2,
  );
  expect((await say('task unique gadget')).text).toBe('2 tasks match. Which one?');
});

it('says a done task is already done, and offers Reopen', async () => {
  await h.slack.slashCommand('add Polish the footer');
  const task = await h.waitFor(async () =>
    (await h.work.listTasks({ projectId })).find((t) => t.taskName === 'Polish the footer'),
  );
  await say('done polish the footer');
  await h.waitFor(async () => (await h.worklink.store.taskIndex.get(h.teamId, task.taskId))?.done);

  const again = await say('done polish the footer');
  expect(again.text).toMatch(
    /^\*#\d+ Polish the footer\* is already done\. Nothing was changed\.$/,
  );
  const reopen = JSON.stringify(again.blocks);
  expect(reopen).toContain(ACTION.taskReopen);
  expect(reopen).toContain('"Reopen"');
  const res = await h.slack.blockAction({ actionId: ACTION.taskReopen, value: task.taskId });
  expect(res.status).toBe(200);
  await h.waitFor(async () => (await h.work.getTask(task.taskId)).status === false);
});

it('names its task in the comment form', async () => {
  await h.slack.slashCommand('add Rewrite the onboarding email');
  const task = await h.waitFor(async () =>
    (await h.work.listTasks({ projectId })).find(
      (t) => t.taskName === 'Rewrite the onboarding email',
    ),
  );
  await h.waitFor(async () => await h.worklink.store.taskIndex.get(h.teamId, task.taskId));
  const res = await h.slack.blockAction({ actionId: ACTION.taskComment, value: task.taskId });
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  expect(JSON.stringify(open.body.view)).toMatch(/On: #\d+ Rewrite the onboarding email/);
});

it('gives a past due date entered in the form the same note as quick add', async () => {
  const res = await h.slack.slashCommand('new');
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  const id = (await answeredView(h, open)).id;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  const view = { ...viewOf(update), id } as ViewJson;
  await h.slack.viewSubmission({
    callbackId: view.callback_id!,
    id: view.id,
    privateMetadata: view.private_metadata,
    values: stateFor(view, { task_name_input: 'Back-dated chore', task_due_input: '2020-01-06' }),
  });
  const note = await h.fake.waitForResponse((r) => String(r.body.text).includes('in the past'));
  expect(note.body.text).toBe(
    'That due date (Mon, Jan 6, 2020) is in the past; the task has it anyway — change it with `/work edit` if that was a slip.',
  );
});
