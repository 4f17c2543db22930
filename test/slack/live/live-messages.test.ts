/**
 * Messages that stay current (issue 11, section 2), through signed Slack requests against the
 * embedded service: every message Worklink posts about a task (the channel card, each
 * assignee's DM) is remembered and chat.update-d when the task changes — through Worklink
 * (done, comment, Reopen) or through the hook the watcher and the task index call — and a
 * message that can no longer be updated is forgotten after one failure.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import type { TaskMessage } from '../../../src/store/index.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, startHarness } from '../../support/harness.js';
import {
  answeredView,
  findTask,
  linkChannel,
  shown,
  stateFor,
  type ViewJson,
  viewOf,
} from '../tasks/helpers.js';

let h: Harness;
let website: string;

beforeAll(async () => {
  // The harness paces live updates 50 ms apart after a burst instead of Slack's 1.2 s: the
  // same updates, sooner (the pace itself: live-updates.test.ts, on a fake clock).
  h = await startHarness({ connect: true });
  website = await linkChannel(h, 0);
});
afterAll(() => h?.stop());
beforeEach(async () => h.fake.reset());

const messagesOf = (taskId: string): Promise<TaskMessage[]> =>
  h.worklink.store.taskMessages.forTask(h.teamId, taskId);

/** `/work add` in #general for Bob and Carol; resolves once the card and both DMs are known. */
async function taskWithMessages(name: string) {
  await h.slack.slashCommand(`add ${name} @bob @carol due:2026-12-01`);
  await h.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.channel === 'C_GENERAL' && shown(c.body).includes(name),
  );
  const task = (await findTask(h, website, name))!;
  const messages = await h.waitFor(async () => {
    const m = await messagesOf(task.taskId);
    return m.length === 3 ? m : undefined;
  });
  return { taskId: task.taskId, messages };
}

/** The chat.update calls made for each of `messages`, once there is one for each. */
async function updatesOf(messages: TaskMessage[], since = 0): Promise<RecordedCall[]> {
  return h.waitFor(() => {
    const calls = h.fake.callsOf('chat.update').slice(since);
    const each = messages.map((m) =>
      calls.filter((c) => c.body.channel === m.channelId && c.body.ts === m.ts).at(-1),
    );
    return each.every(Boolean) ? (each as RecordedCall[]) : undefined;
  });
}

describe('the messages about a task', () => {
  it('are remembered: the channel card and each assignee’s DM', async () => {
    const { messages } = await taskWithMessages('Remembered task');
    expect(messages.map((m) => [m.kind, m.channelId]).sort()).toEqual([
      ['card', 'C_GENERAL'],
      ['dm', 'D_BOB'],
      ['dm', 'D_CAROL'],
    ]);
    expect(messages.every((m) => m.actor === `<@${h.users.alice.id}>`)).toBe(true);
  });

  it('after /work done: the card and both DMs show Done, with Reopen, Details and Open in', async () => {
    const { taskId, messages } = await taskWithMessages('Finish the report');
    const res = await h.slack.slashCommand(`done ${taskId}`);
    expect(res.status).toBe(200);
    const updates = await updatesOf(messages);
    for (const call of updates) {
      const text = shown(call.body.blocks);
      expect(text).toContain('✅');
      expect(text).toContain('Status: *Done*');
      expect(text).toContain('"text":"Reopen"');
      expect(text).toContain('"text":"Details"');
      expect(text).not.toContain('Mark complete');
    }
    // The task's number, answered by the completion, is shown from now on.
    expect(shown(updates.find((c) => c.body.channel === 'D_BOB')!.body.blocks)).toMatch(
      /✅ <@U_ALICE> assigned you \*#\d+ Finish the report\* in \*Website relaunch\*/,
    );
  });

  it('Reopen on a DM sets the task back to an open status and updates every message', async () => {
    const { taskId, messages } = await taskWithMessages('Reopen me');
    await h.slack.slashCommand(`done ${taskId}`);
    await updatesOf(messages);
    const before = h.fake.callsOf('chat.update').length;
    const dm = messages.find((m) => m.channelId === 'D_BOB')!;
    const res = await h.slack.blockAction(
      { actionId: ACTION.taskReopen, value: taskId },
      { userId: h.users.bob.id, channelId: dm.channelId, message: { type: 'message', ts: dm.ts } },
    );
    expect(res.status).toBe(200);
    const updates = await updatesOf(messages, before);
    expect((await h.work.getTask(taskId)).status).toBe(false);
    for (const call of updates) {
      const text = shown(call.body.blocks);
      expect(text).toContain('Mark complete');
      expect(text).not.toContain('✅');
    }
    // The pressed DM is updated like the others, not replaced by a different card.
    expect(h.repliesTo(res).filter((r) => r.replace_original)).toEqual([]);
  });

  it('after an edit in the form: the new title and due date on the card and both DMs', async () => {
    const { taskId, messages } = await taskWithMessages('Edit me');
    const res = await h.slack.slashCommand(`edit ${taskId}`);
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const id = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
    const view = { ...viewOf(update), id } as ViewJson;
    const submitted = await h.slack.viewSubmission({
      callbackId: view.callback_id!,
      id: view.id,
      privateMetadata: view.private_metadata,
      blocks: view.blocks,
      values: stateFor(view, { task_name_input: 'Edited title', task_due_input: '2026-12-24' }),
    });
    expect(submitted.json?.response_action).toBeUndefined(); // the modal closes
    for (const call of await updatesOf(messages)) {
      const text = shown(call.body.blocks);
      expect(text).toContain('Edited title');
      expect(text).not.toContain('Edit me');
      expect(text).toContain('Thu, Dec 24, 2026');
    }
  });

  it('after /work assign: the new assignee is on the card and in the DMs', async () => {
    const { taskId, messages } = await taskWithMessages('Needs more hands');
    await h.slack.slashCommand(`assign ${taskId} @dan`);
    const updates = await updatesOf(messages);
    const card = updates.find((c) => c.body.channel === 'C_GENERAL')!;
    expect(shown(card.body.blocks)).toContain('for <@U_BOB>, <@U_CAROL>, <@U_DAN>');
    const dm = updates.find((c) => c.body.channel === 'D_BOB')!;
    expect(shown(dm.body.blocks)).toContain('Assignees: <@U_BOB>, <@U_CAROL>, <@U_DAN>');
  });

  it('a change seen elsewhere (the watcher’s hook): new title and due date everywhere', async () => {
    const { taskId, messages } = await taskWithMessages('Old title');
    await h.work.updateTask(taskId, {
      projectId: website,
      name: 'New title',
      dueDate: '2026-12-24',
    });
    h.worklink.parts.live.taskChanged(h.teamId, taskId);
    for (const call of await updatesOf(messages)) {
      const text = shown(call.body.blocks);
      expect(text).toContain('New title');
      expect(text).not.toContain('Old title');
    }
    const card = (await updatesOf(messages)).find((c) => c.body.channel === 'C_GENERAL')!;
    expect(shown(card.body.blocks)).toContain('due Thu, Dec 24, 2026');
    const dm = (await updatesOf(messages)).find((c) => c.body.channel === 'D_CAROL')!;
    expect(shown(dm.body.blocks)).toContain('Due: Thu, Dec 24, 2026');
  });

  it('a change the task index’s re-reads find is shown too', async () => {
    const { taskId, messages } = await taskWithMessages('Renamed in the service');
    // Changed in the service itself, not through Worklink.
    await h.work.updateTask(taskId, { projectId: website, name: 'Renamed elsewhere' });
    await h.worklink.parts.indexRefresh.runTeam(h.teamId);
    for (const call of await updatesOf(messages)) {
      expect(shown(call.body.blocks)).toContain('Renamed elsewhere');
    }
  });

  it('a message that can no longer be updated is forgotten after one failure', async () => {
    const { taskId, messages } = await taskWithMessages('Deleted card');
    const card = messages.find((m) => m.kind === 'card')!;
    h.fake.script('chat.update', (body) =>
      body.ts === card.ts ? { ok: false, error: 'message_not_found' } : undefined,
    );
    try {
      await h.slack.slashCommand(`comment ${taskId} First`);
      await updatesOf(messages);
      await h.waitFor(async () => (await messagesOf(taskId)).length === 2 || undefined);
      expect((await messagesOf(taskId)).map((m) => m.channelId).sort()).toEqual([
        'D_BOB',
        'D_CAROL',
      ]);

      const before = h.fake.callsOf('chat.update').length;
      await h.slack.slashCommand(`done ${taskId}`);
      await updatesOf(await messagesOf(taskId), before);
      await h.worklink.parts.live.idle();
      const tried = h.fake.callsOf('chat.update').slice(before);
      expect(tried.some((c) => c.body.ts === card.ts)).toBe(false);
    } finally {
      h.fake.script('chat.update', undefined);
    }
    expect(h.logs.some((l) => l.includes('(message_not_found)'))).toBe(true);
  });
});
