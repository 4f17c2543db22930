/**
 * Forms that scale: a workspace of 125 service users. The task form's assignees are a
 * type-ahead (multi_external_select answered from the service's users), so the 125th person
 * can be assigned; an edit that does not touch the assignees keeps all of them, also those
 * past the 100th a static list could not show. Through signed requests, against the fake
 * Slack (which checks the views) and the embedded service.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createUser } from '../../../src/service/users.js';
import { TASK_ACTION } from '../../../src/slack/tasks/form/task-form-fields.js';
import { VIEW } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import {
  answeredView,
  type FieldValue,
  inputWith,
  linkChannel,
  stateFor,
  type ViewJson,
  viewOf,
} from './helpers.js';

let h: Harness;
let projectId: string;
/** The 120 people added to the seed's 5, "Member 001" … "Member 120", in name order. */
const members: { id: string; name: string }[] = [];

beforeAll(async () => {
  h = await startHarness({ connect: true });
  projectId = await linkChannel(h, 0);
  for (let i = 1; i <= 120; i++) {
    const name = `Member ${String(i).padStart(3, '0')}`;
    const id = createUser(h.service.db, h.seed.workspaceId, {
      name,
      email: `member${i}@example.com`,
    });
    members.push({ id, name });
  }
  expect((await h.work.listUsers()).length).toBe(125);
});
afterAll(() => h?.stop());

async function openForm(command: string): Promise<ViewJson> {
  const res = await h.slack.slashCommand(command);
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  const id = (await answeredView(h, open)).id;
  const update = await h.fake.waitForCall(
    'views.update',
    (c) => c.body.view_id === id && c.reply !== undefined,
  );
  expect(update.reply).toMatchObject({ ok: true });
  return { ...viewOf(update), id };
}

function submit(view: ViewJson, values: Record<string, FieldValue>) {
  return h.slack.viewSubmission({
    callbackId: view.callback_id!,
    id: view.id,
    privateMetadata: view.private_metadata,
    blocks: view.blocks,
    values: stateFor(view, values),
  });
}

/** What Slack asks while the person types into the assignees field. */
async function suggest(typed: string) {
  const res = await h.slack.sendPayload({
    type: 'block_suggestion',
    action_id: TASK_ACTION.assignees,
    block_id: 'task_assignees',
    value: typed,
    api_app_id: 'A_TEST',
    team: { id: h.teamId, domain: 'test' },
    user: { id: h.users.alice.id, team_id: h.teamId },
    container: { type: 'view', view_id: 'V1' },
    view: { id: 'V1', type: 'modal', callback_id: VIEW.taskCreate, private_metadata: '{}' },
  });
  expect(res.status).toBe(200);
  return (res.json?.options ?? []) as { text: { text: string }; value: string }[];
}

it('assigns the 125th person from the form, found by typing', async () => {
  const view = await openForm('new');
  expect(inputWith(view, TASK_ACTION.assignees)?.element?.type).toBe('multi_external_select');
  const last = members[members.length - 1]!;
  const options = await suggest('member 120');
  expect(options).toEqual([
    { text: { type: 'plain_text', text: 'Member 120 (member120@example.com)' }, value: last.id },
  ]);
  // Words match names and e-mails by prefix; no cap but Slack's 100 per answer.
  expect((await suggest('mem')).length).toBe(100);
  expect((await suggest('bob'))[0]?.text.text).toBe('Bob Brown (bob@example.com)');

  const res = await submit(view, {
    task_name_input: 'Welcome the newest member',
    [TASK_ACTION.assignees]: [last.id],
  });
  expect(res.json?.response_action).toBeUndefined();
  const task = await h.waitFor(async () =>
    (await h.work.listTasks({ projectId })).find((t) => t.taskName === 'Welcome the newest member'),
  );
  expect((await h.work.getTask(task.taskId)).taskUsers).toEqual([{ taskUserId: last.id }]);
});

it('keeps every assignee, past the 100th too, when an edit changes only the due date', async () => {
  const far = members.slice(110, 115).map((m) => m.id);
  const task = await h.work.createTask({ projectId, name: 'Plan the offsite', taskUsers: far });
  const view = await openForm(`edit ${task.taskId}`);
  const shown = inputWith(view, TASK_ACTION.assignees)?.element?.initial_options ?? [];
  expect(shown.map((o) => o.value)).toEqual(far);

  const client = h.worklink.deps.workClients.for(
    (await h.worklink.store.connections.get(h.teamId))!,
  );
  const spy = vi.spyOn(client, 'updateTask');
  try {
    const res = await submit(view, { task_due_input: '2030-05-01' });
    expect(res.json?.response_action).toBeUndefined();
    await h.waitFor(() => spy.mock.calls.length === 1);
    // Only what the person changed is sent.
    expect(spy.mock.calls[0]).toEqual([task.taskId, { projectId, dueDate: '2030-05-01' }]);
    await h.fake.waitForResponse((r) => String(r.body.text).includes('changed due date'));
  } finally {
    spy.mockRestore();
  }
  const after = await h.work.getTask(task.taskId);
  expect(after.taskUsers?.map((u) => u.taskUserId).sort()).toEqual([...far].sort());
});
