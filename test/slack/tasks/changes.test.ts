/**
 * The task-change owner (src/slack/tasks/changes.ts) through the real stack: a change made
 * anywhere refreshes the task's live messages (Home's Mark complete included), comments carry
 * the attribution line only when written on behalf, and `seen` (src/activity/seen.ts) tells
 * what two looks at a task differ in.
 */
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TaskActivity } from '../../../src/activity/hub.js';
import { seen } from '../../../src/activity/seen.js';
import { buildWorkContext } from '../../../src/slack/context/work-context.js';
import { taskChanges } from '../../../src/slack/tasks/changes.js';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { serviceView } from './helpers.js';

let h: Harness;
let website: string;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

async function contextOf(userId: string) {
  const slack = new WebClient('xoxb-test', { slackApiUrl: h.fake.apiUrl });
  return buildWorkContext(h.worklink.deps, { teamId: h.teamId, userId, slack });
}

describe('the task-change owner', () => {
  it('refreshes the live card when the task is completed from Home', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Finish from Home' });
    await h.worklink.store.taskMessages.remember({
      teamId: h.teamId,
      taskId,
      channelId: 'C_GENERAL',
      ts: '1700000000.000100',
      kind: 'card',
      actor: '<@U_BOB>',
    });
    const res = await h.slack.blockAction(
      { actionId: ACTION.homeTaskComplete, value: taskId },
      { userId: 'U_BOB', channelId: 'D_BOB' },
    );
    expect(res.status).toBe(200);
    const update = await h.fake.waitForCall(
      'chat.update',
      (c) => c.body.ts === '1700000000.000100',
    );
    expect(JSON.stringify(update.body)).toContain('Finish from Home');
    expect((await serviceView(h, taskId)).updated.Status).toBe(true);
  });

  it('signs a comment written on behalf, and not one written as the person', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Signed or not' });
    const ctx = await contextOf('U_BOB');
    const changes = taskChanges(ctx);
    const base = { teamId: h.teamId, slackUserId: 'U_BOB', work: ctx.work };
    const signed = await changes.comment({ ...base, onBehalf: true }, taskId, 'On behalf');
    const own = await changes.comment({ ...base, onBehalf: false }, taskId, 'In my own name');
    expect(signed.content).toBe('On behalf\n\n— Bob Brown (via Slack)');
    expect(own.content).toBe('In my own name');
    const { updated } = await serviceView(h, taskId);
    expect(updated.Comments?.filter((c) => c.Type === 1).map((c) => c.Comment)).toEqual([
      'On behalf\n\n— Bob Brown (via Slack)',
      'In my own name',
    ]);
  });

  it('assigns only the people not yet on the task, and says who was added', async () => {
    const bob = h.seed.users.find((u) => u.name === 'Bob Brown');
    const carol = h.seed.users.find((u) => u.name === 'Carol Chen');
    const { taskId } = await h.work.createTask({
      projectId: website,
      name: 'Assign through the owner',
      taskUsers: [bob!.id],
    });
    const ctx = await contextOf('U_ALICE');
    const by = { teamId: h.teamId, slackUserId: 'U_ALICE', work: ctx.work, onBehalf: true };
    const result = await taskChanges(ctx).assign(by, taskId, [bob!.id, carol!.id]);
    expect(result.added).toEqual([carol!.id]);
    const again = await taskChanges(ctx).assign(by, taskId, [carol!.id]);
    expect(again.added).toEqual([]);
    const task = await h.work.getTask(taskId);
    expect((task.taskUsers ?? []).map((u) => u.taskUserId).sort()).toEqual(
      [bob!.id, carol!.id].sort(),
    );
  });
});

describe('seen', () => {
  const heard = () => {
    const emitted: TaskActivity[] = [];
    const refreshed: string[] = [];
    const noted: string[] = [];
    const parts = {
      activity: { emit: (_team: string, a: TaskActivity) => void emitted.push(a) },
      live: { taskChanged: (_team: string, taskId: string) => void refreshed.push(taskId) },
      store: {
        taskCreators: {
          note: async (_team: string, taskId: string) => void noted.push(taskId),
          get: async () => undefined,
          deleteTeam: async () => 0,
        },
      },
    };
    return { emitted, refreshed, noted, parts };
  };
  const task = (assigneeIds: string[], done = false) => ({
    taskId: 't1',
    projectId: 'p1',
    assigneeIds,
    done,
  });

  it('tells a new task as created and notes who made it, without refreshing anything', async () => {
    const { emitted, refreshed, noted, parts } = heard();
    seen(parts, 'T1', undefined, task(['u1', 'u1']), { actor: { serviceUserId: 'u9' } });
    await Promise.resolve();
    expect(emitted).toEqual([
      {
        kind: 'created',
        taskId: 't1',
        projectId: 'p1',
        actor: { serviceUserId: 'u9' },
        assigneeIds: ['u1'],
      },
    ]);
    expect(noted).toEqual(['t1']);
    expect(refreshed).toEqual([]);
  });

  it('refreshes and tells new assignees; completion only when the caller changed the status', () => {
    const { emitted, refreshed, parts } = heard();
    seen(parts, 'T1', task(['u1']), task(['u1', 'u2'], true));
    expect(refreshed).toEqual(['t1']);
    expect(emitted.map((a) => a.kind)).toEqual(['assigned']);
    seen(parts, 'T1', task(['u1']), task(['u1'], true), { status: true, refresh: false });
    expect(emitted.map((a) => a.kind)).toEqual(['assigned', 'completed']);
    expect(refreshed).toEqual(['t1']);
  });
});
