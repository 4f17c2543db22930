/**
 * Notifications end to end: the real app (HTTP mode), the embedded service delivering its
 * signed task.created events to POST /work/events, the fake Slack Web API scripted to fail
 * (429 + Retry-After, 500, slow, user_not_found), and the Slack-path announcement the task
 * listeners make. Every assignee gets one DM, the creator none; what cannot be delivered is
 * recorded with its reason and shown in `/work status`.
 */
import { WebClient } from '@slack/web-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countUndelivered } from '../../../src/service/event-outbox.js';
import {
  type AnnounceInput,
  announceNewTask,
  describeAssignmentReport,
} from '../../../src/slack/notify/announce.js';
import type { Notifications } from '../../../src/slack/notify/notifications.js';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import type { OutboxStore } from '../../../src/store/index.js';
import type { Task } from '../../../src/workapi/contract.js';
import { signEvent } from '../../../src/workapi/event-signature.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { BOT_TOKEN, type Harness, startHarness } from '../../support/harness.js';
import { dmAttempts, dmCalls, scriptDmHistory } from '../../support/notify-slack.js';
import { sqliteHandle } from '../../support/sqlite-handle.js';

const EVENTS_SECRET = 'events-secret-for-tests-0123456789abcdef';

let h: Harness;
let notifications: Notifications;
let outbox: OutboxStore;
let ids: Record<'alice' | 'bob' | 'carol' | 'dan' | 'erin', string>;
let projectId: string;
let projectName: string;
let slack: WebClient;

beforeAll(async () => {
  h = await startHarness({
    connect: true,
    configure: (c) => ({ ...c, workEventsSecret: EVENTS_SECRET }),
  });
  notifications = h.worklink.parts.notifications;
  notifications.tuning.eventGraceMs = 300;
  outbox = h.worklink.store.outbox;
  // In the harness the service is started outside the app: subscribe it as startWorklink
  // does for its own embedded service.
  h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
  scriptDmHistory(h.fake);
  const byEmail = (e: string) => h.seed.users.find((u) => u.email === e)!.id;
  ids = {
    alice: byEmail('alice@example.com'),
    bob: byEmail('bob@example.com'),
    carol: byEmail('carol@example.com'),
    dan: byEmail('dan@example.com'),
    erin: byEmail('erin@example.com'),
  };
  ({ projectId, projectName } = h.seed.projects[0]);
  slack = new WebClient(BOT_TOKEN, { slackApiUrl: h.fake.apiUrl });
});
afterAll(() => h?.stop());
afterEach(() => {
  h.fake.script('chat.postMessage', undefined);
  notifications.tuning.eventGraceMs = 300;
});

/** All of a task's rows have reached an end state. */
async function settled(taskId: string, count: number) {
  return h.waitFor(
    async () => {
      const rows = await outbox.forTask(h.teamId, taskId);
      return rows.length === count && rows.every((r) => !['pending', 'sending'].includes(r.status))
        ? rows
        : undefined;
    },
    { timeoutMs: 15_000 },
  );
}

const forTask = (taskId: string) => (c: RecordedCall) =>
  (c.body.metadata as { event_payload?: { task_id?: string } }).event_payload?.task_id === taskId;
const dmsForTask = (taskId: string) => dmCalls(h.fake).filter(forTask(taskId));
const statusOf = async (taskId: string, serviceUserId: string) =>
  (await outbox.forTask(h.teamId, taskId)).find((r) => r.serviceUserId === serviceUserId);

function announce(task: Task, actor: AnnounceInput['actor']) {
  return announceNewTask(
    {
      slack,
      work: h.work,
      store: h.worklink.store,
      directory: h.worklink.deps.directory,
      matcher: h.worklink.deps.matcher,
    },
    { teamId: h.teamId, task, actor },
  );
}

/** Every event the service recorded has reached the app (and was answered 2xx). */
const eventsDelivered = () => h.waitFor(() => countUndelivered(h.service.db) === 0);

describe('tasks created outside Slack (service events)', () => {
  it('DMs every assignee of a task created directly on the service, and not its creator', async () => {
    const task = await h.work.createTask({
      projectId,
      name: 'Outside task',
      taskUsers: [ids.alice, ids.bob, ids.carol],
      dueDate: '2026-11-25',
      priority: 1,
    });
    const rows = await settled(task.taskId, 3);
    expect(Object.fromEntries(rows.map((r) => [r.serviceUserEmail, r.status]))).toEqual({
      'alice@example.com': 'skipped',
      'bob@example.com': 'sent',
      'carol@example.com': 'sent',
    });
    const dms = dmsForTask(task.taskId);
    expect(dms.map((c) => c.body.channel).sort()).toEqual(['U_BOB', 'U_CAROL']);
    expect(dms[0].body.text).toBe(
      `Alice Adams assigned you *Outside task* in *${projectName}* — due Wed, Nov 25, 2026, priority Urgent`,
    );
  });

  it('rejects forged, stale and replayed events, and malformed bodies, changing nothing', async () => {
    const url = `${h.worklink.url}/work/events`;
    const event = {
      id: `ev-${Date.now()}`,
      type: 'task.created',
      createdAt: new Date().toISOString(),
      workspaceId: h.seed.workspaceId,
      actorId: ids.carol,
      task: { taskId: 'aaaaaaaaaaaaaaaaaaaaaaaa', taskName: 'Synthetic', projectId },
      taskUsers: [{ id: ids.bob, name: 'Bob Brown', email: 'bob@example.com' }],
    };
    const body = JSON.stringify(event);
    const post = (b: string, opts: { secret?: string; ts?: number; headers?: boolean } = {}) => {
      const ts = opts.ts ?? Math.floor(Date.now() / 1000);
      return fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(opts.headers === false
            ? {}
            : {
                'x-work-timestamp': String(ts),
                'x-work-signature': signEvent(opts.secret ?? EVENTS_SECRET, ts, b),
              }),
        },
        body: b,
      });
    };
    const before = await outbox.counts();
    expect((await post(body, { secret: 'not-the-secret' })).status).toBe(401);
    expect((await post(body, { headers: false })).status).toBe(401);
    expect((await post(body, { ts: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    expect((await post(`${body}x`)).status).toBe(400);
    expect((await post(JSON.stringify({ ...event, task: undefined }))).status).toBe(400);
    expect((await post('{"id":"1"}')).status).toBe(400);
    const big = await post(JSON.stringify({ ...event, pad: 'x'.repeat(1_100_000) }));
    expect(big.status).toBe(413);
    expect(await outbox.counts()).toEqual(before);

    const other = await post(
      JSON.stringify({ ...event, id: `${event.id}-o`, type: 'task.deleted' }),
    );
    expect(other.status).toBe(200);
    expect(await other.json()).toMatchObject({ ignored: 'task.deleted' });

    const first = await post(body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ ok: true, teams: 1, queued: 1 });
    await settled(event.task.taskId, 1);
    // The same event again, correctly signed with a fresh timestamp: taken as a replay.
    const replay = await post(body);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ ok: true, duplicate: true });
    expect(await outbox.forTask(h.teamId, event.task.taskId)).toHaveLength(1);
    expect(dmsForTask(event.task.taskId)).toHaveLength(1);
    expect(dmsForTask(event.task.taskId)[0].body.text).toMatch(
      /^Carol Chen assigned you \*Synthetic\*/,
    );
  });
});

describe('tasks created in Slack', () => {
  it('event first, then the Slack announcement: one DM per assignee, the Slack creator skipped', async () => {
    notifications.tuning.eventGraceMs = 10_000;
    // Bob creates it in Slack; the service only knows the key's owner, Alice, as its creator.
    const task = await h.work.createTask({
      projectId,
      name: 'Made in Slack',
      taskUsers: [ids.alice, ids.bob, ids.carol],
    });
    await h.waitFor(async () => (await outbox.forTask(h.teamId, task.taskId)).length === 3);
    const report = await announce(task, { slackUserId: 'U_BOB' });
    expect(report).toEqual({ assignees: 3, notified: 2, skippedActor: true, unmatched: [] });
    expect(describeAssignmentReport(report)).toBe('2 of 2 assignees notified.');
    await settled(task.taskId, 3);
    expect((await statusOf(task.taskId, ids.bob))?.status).toBe('skipped');
    const dms = dmsForTask(task.taskId);
    expect(dms.map((c) => c.body.channel).sort()).toEqual(['U_ALICE', 'U_CAROL']);
    expect(dms[0].body.text).toMatch(/^<@U_BOB> assigned you \*Made in Slack\*/);
  });

  it('/work add: the channel gets the card; each other assignee gets one DM', async () => {
    notifications.tuning.eventGraceMs = 10_000;
    await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', projectId, 'U_ALICE');
    const res = await h.slack.slashCommand('add Typed in Slack <@U_ALICE> <@U_BOB> <@U_CAROL>', {
      userId: 'U_BOB',
    });
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL' && JSON.stringify(c.body).includes('Typed in Slack'),
    );
    const { task_id: taskId } = sqliteHandle(h.worklink.store)
      .prepare<[string], { task_id: string }>(
        'SELECT DISTINCT task_id FROM notify_outbox WHERE task_name = ?',
      )
      .get('Typed in Slack')!;
    const rows = await settled(taskId, 3);
    expect(Object.fromEntries(rows.map((r) => [r.serviceUserEmail, r.status]))).toEqual({
      'alice@example.com': 'sent',
      'bob@example.com': 'skipped',
      'carol@example.com': 'sent',
    });
    await eventsDelivered();
    expect(
      dmsForTask(taskId)
        .map((c) => c.body.channel)
        .sort(),
    ).toEqual(['U_ALICE', 'U_CAROL']);
    expect(dmsForTask(taskId)[0].body.text).toMatch(/^<@U_BOB> assigned you \*Typed in Slack\*/);
    // Everyone could be told, so the author gets no second message.
    expect(h.repliesTo(res)).toEqual([]);
  });

  it('announcement first, then the event: still one DM per assignee', async () => {
    h.service.setEventsSubscriber(undefined);
    const task = await h.work.createTask({
      projectId,
      name: 'Announced first',
      taskUsers: [ids.dan, ids.erin],
    });
    const report = await announce(task, { slackUserId: 'U_CAROL' });
    expect(report).toEqual({ assignees: 2, notified: 2, skippedActor: false, unmatched: [] });
    await settled(task.taskId, 2);
    h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
    await eventsDelivered();
    await settled(task.taskId, 2);
    expect(
      dmsForTask(task.taskId)
        .map((c) => c.body.channel)
        .sort(),
    ).toEqual(['U_DAN', 'U_ERIN']);
  });

  it('reports assignees without a Slack account to the creator', async () => {
    const erin = h.fake.users.get('U_ERIN')!;
    h.fake.users.delete('U_ERIN');
    // Earlier tests found Erin by e-mail; that answer is cached for an hour.
    await h.worklink.store.lookups.clear(h.teamId);
    try {
      const task = await h.work.createTask({
        projectId,
        name: 'Half matched',
        taskUsers: [ids.bob, ids.erin],
      });
      const report = await announce(task, { slackUserId: 'U_ALICE' });
      expect(report).toEqual({
        assignees: 2,
        notified: 1,
        skippedActor: false,
        unmatched: ['erin@example.com'],
      });
      expect(describeAssignmentReport(report)).toBe(
        '1 of 2 assignees notified — erin@example.com has no Slack account linked.',
      );
      await settled(task.taskId, 2);
      expect(await statusOf(task.taskId, ids.erin)).toMatchObject({
        status: 'failed',
        lastError: 'no Slack account linked',
      });
      expect(dmsForTask(task.taskId).map((c) => c.body.channel)).toEqual(['U_BOB']);

      const status = await h.slack.slashCommand('status', { userId: 'U_ALICE' });
      const text = (await h.replyTo(status)).text ?? '';
      expect(text).toMatch(/\*Assignment DMs:\* 0 pending, \d+ sent, 1 failed/);
      expect(text).toContain(
        'Erin Evans (erin@example.com) — _Half matched_: no Slack account linked',
      );
    } finally {
      h.fake.users.set('U_ERIN', erin);
      await h.worklink.store.lookups.clear(h.teamId);
    }
  });
});

describe('failures on the way', () => {
  it('delivers every DM once through 429, 500 and slow answers; records user_not_found', async () => {
    const seen = new Map<string, number>();
    h.fake.script('chat.postMessage', (body) => {
      const channel = String(body.channel);
      const n = (seen.get(channel) ?? 0) + 1;
      seen.set(channel, n);
      if (channel === 'U_BOB' && n === 1) return { status: 429, headers: { 'retry-after': '1' } };
      if (channel === 'U_CAROL' && n === 1) return { status: 500, body: { ok: false } };
      if (channel === 'U_DAN') return { delayMs: 500 };
      if (channel === 'U_ERIN') return { ok: false, error: 'user_not_found' };
      return undefined;
    });
    const task = await h.work.createTask({
      projectId,
      name: 'Rough road',
      taskUsers: [ids.bob, ids.carol, ids.dan, ids.erin],
    });
    const report = await announce(task, { slackUserId: 'U_ALICE' });
    expect(report.notified).toBe(4);
    const rows = await settled(task.taskId, 4);
    expect(
      Object.fromEntries(rows.map((r) => [r.slackUserId, [r.status, r.lastError ?? null]])),
    ).toEqual({
      U_BOB: ['sent', null],
      U_CAROL: ['sent', null],
      U_DAN: ['sent', null],
      U_ERIN: ['failed', 'user_not_found'],
    });
    const dms = dmsForTask(task.taskId);
    expect(dms.map((c) => c.body.channel).sort()).toEqual(['U_BOB', 'U_CAROL', 'U_DAN']);
    const attempts = dmAttempts(h.fake)
      .filter(forTask(task.taskId))
      .filter((c) => c.body.channel === 'U_BOB');
    expect(attempts).toHaveLength(2);
    expect(attempts.at(-1)!.at - attempts.at(-2)!.at).toBeGreaterThanOrEqual(1_000);

    const status = await h.slack.slashCommand('status', { userId: 'U_ALICE' });
    expect((await h.replyTo(status)).text).toContain('_Rough road_: user_not_found');
  });
});

describe('buttons in the DM', () => {
  it('Mark complete from the DM completes the task in the service', async () => {
    const task = await h.work.createTask({ projectId, name: 'Finish me', taskUsers: [ids.bob] });
    await announce(task, { slackUserId: 'U_ALICE' });
    await settled(task.taskId, 1);
    const [dm] = dmsForTask(task.taskId);
    const actions = (
      dm.body.blocks as { type: string; block_id?: string; elements?: unknown[] }[]
    ).find((b) => b.type === 'actions')!;
    const complete = (actions.elements as { action_id: string; value: string }[]).find(
      (e) => e.action_id === ACTION.taskComplete,
    )!;
    const res = await h.slack.blockAction(
      { actionId: complete.action_id, value: complete.value, blockId: actions.block_id },
      { userId: 'U_BOB', channelId: 'DBOB' },
    );
    expect(res.status).toBe(200);
    await h.waitFor(async () => (await h.work.getTask(task.taskId)).status === true);
  });
});

describe('/work link, /work unlink and /work me', () => {
  it('lets admins send a service user’s DMs to another Slack user, and shows matches', async () => {
    const refused = await h.slack.slashCommand('link <@U_DAN|dan> erin@example.com', {
      userId: 'U_BOB',
    });
    expect((await h.replyTo(refused)).text).toMatch(/only Slack workspace admins and owners/);
    expect(await h.worklink.store.userLinks.byEmail(h.teamId, 'erin@example.com')).toBeUndefined();

    const unknown = await h.slack.slashCommand('link <@U_DAN> nobody@example.com');
    expect((await h.replyTo(unknown)).text).toMatch(/No user .* has the e-mail nobody@example.com/);

    const bad = await h.slack.slashCommand('link dan erin@example.com');
    expect((await h.replyTo(bad)).text).toMatch(/^Usage: `\/work link @slack-user/);

    const linked = await h.slack.slashCommand(
      'link <@U_DAN|dan> <mailto:Erin@Example.com|Erin@Example.com>',
    );
    expect((await h.replyTo(linked)).text).toMatch(
      /^Linked \*Erin Evans\* \(erin@example.com\) to <@U_DAN>/,
    );

    const dan = await h.slack.slashCommand('me', { userId: 'U_DAN' });
    expect((await h.replyTo(dan)).text).toMatch(/You are .*Erin Evans.* linked by <@U_ALICE>/);
    const bob = await h.slack.slashCommand('me', { userId: 'U_BOB' });
    expect((await h.replyTo(bob)).text).toMatch(
      /You are \*Bob Brown\* \(bob@example.com\).*matched by your Slack e-mail/,
    );
    const erin = await h.slack.slashCommand('me', { userId: 'U_ERIN' });
    expect((await h.replyTo(erin)).text).toMatch(
      /no task DMs yet: erin@example.com is linked to <@U_DAN>/,
    );

    const task = await h.work.createTask({ projectId, name: 'For Erin', taskUsers: [ids.erin] });
    await settled(task.taskId, 1);
    expect(dmsForTask(task.taskId).map((c) => c.body.channel)).toEqual(['U_DAN']);

    const unlinked = await h.slack.slashCommand('unlink <@U_DAN>');
    expect((await h.replyTo(unlinked)).text).toMatch(
      /Removed the link of <@U_DAN> to erin@example.com/,
    );
    const again = await h.slack.slashCommand('me', { userId: 'U_DAN' });
    expect((await h.replyTo(again)).text).toMatch(/You are \*Dan Diaz\*/);
  });
});
