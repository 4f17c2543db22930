/**
 * The DMs for what happens to a task after it was made (issue 11 §1), through signed Slack
 * requests, against the hosted-style service and the embedded one: an assignment after
 * creation (to the new assignee), a comment (to assignees and the creator, quoted, with
 * Reply and Details), a completion (to the creator) — each once, never to the person who acted;
 * each person's settings (command and App Home checkboxes); quiet hours with a fake clock
 * (held, then one message listing them after the window).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../src/slack/ui/block-ids.js';
import type { RecordedCall } from '../support/fake-slack.js';
import { type AppHarness, type HarnessOptions, startHarness, waitFor } from '../support/harness.js';
import { type HostedFake, startHostedFake } from '../support/hosted-fake.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

type Backend = { name: string; start(o: HarnessOptions): Promise<AppHarness> };
const backends: Backend[] = [
  { name: 'hosted-style service', start: (o) => startHostedHarness(o) },
  { name: 'embedded service', start: (o) => startHarness(o) },
];

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('DM kinds against the $name', ({ start }) => {
  let h: AppHarness;
  /** The app's clock: real unless a test sets it (quiet hours). */
  let fakeNow: number | undefined;
  let taskId = '';

  beforeAll(async () => {
    h = await start({ connect: true, clock: () => fakeNow ?? Date.now() });
    const website = h.seed.projects[0]!.projectId;
    await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', website, h.users.alice.id);
  });
  afterAll(() => h?.stop());

  const U = {
    alice: 'U_ALICE',
    bob: 'U_BOB',
    carol: 'U_CAROL',
    dan: 'U_DAN',
    erin: 'U_ERIN',
  } as const;

  /** DMs to `user` whose outbox key starts with `prefix` (a bare task id: assignment DMs). */
  const dmsTo = (user: string, key: (k: string) => boolean) =>
    (h.fake.callsOf('chat.postMessage') as RecordedCall[]).filter((c) => {
      if (c.body.channel !== user) return false;
      const meta = c.body.metadata as { event_payload?: { task_id?: string } } | undefined;
      return key(meta?.event_payload?.task_id ?? '');
    });
  const about = (id: string) => (k: string) => k === id || k.includes(`:${id}:`);
  const commentsTo = (user: string, id = taskId) =>
    dmsTo(user, (k) => k.startsWith(`comment:${id}:`));
  const completionsTo = (user: string, id = taskId) =>
    dmsTo(user, (k) => k.startsWith(`completed:${id}:`));
  const assignmentsTo = (user: string, id = taskId) => dmsTo(user, (k) => k === id);

  const run = async (command: string, userId: string) => {
    const res = await h.slack.slashCommand(command, { userId });
    expect(res.status).toBe(200);
    return (await h.replyTo(res)).text ?? '';
  };
  /** Every background step done: activity listeners, then the outbox drained. */
  const settle = async () => {
    await h.worklink.parts.activity.idle();
    await waitFor(async () => {
      const c = await h.worklink.store.outbox.counts();
      return c.pending === 0 && c.sending === 0;
    });
  };
  const newTask = async (name: string, by: string, assignees: string) => {
    await h.slack.slashCommand(`add ${name} ${assignees}`, { userId: by });
    const found = await waitFor(async () =>
      (await h.worklink.store.taskIndex.search(h.teamId, name)).find((t) => t.name === name),
    );
    // Its creator is known once the created activity was heard.
    await waitFor(
      async () => (await h.worklink.store.taskCreators.get(h.teamId, found.taskId))?.slackUserId,
    );
    await settle();
    return found.taskId;
  };

  it('tells a person assigned after creation, once, and never the one who assigned', async () => {
    taskId = await newTask('Fix the login page', U.alice, '<@U_BOB>');
    expect(assignmentsTo(U.bob)).toHaveLength(1);

    // Dan adds Carol and himself: Carol is told, Dan is not.
    expect(await run(`assign ${taskId} <@U_CAROL> <@U_DAN>`, U.dan)).toMatch(/^Assigned /);
    await settle();
    const [dm] = assignmentsTo(U.carol);
    expect(dm?.body.text).toContain('<@U_DAN> assigned you *Fix the login page*');
    expect(assignmentsTo(U.dan)).toHaveLength(0);

    // The same assignment seen again (the index refresh, a retried emit) is not a second DM.
    h.worklink.parts.activity.emit(h.teamId, {
      kind: 'assigned',
      taskId,
      added: [h.seed.users.find((u) => u.email === 'carol@example.com')!.id],
    });
    await settle();
    await pause(100);
    expect(assignmentsTo(U.carol)).toHaveLength(1);
    expect(assignmentsTo(U.bob)).toHaveLength(1);
  });

  it('tells a person the index refresh finds newly assigned (a change made outside Slack)', async () => {
    const task = await newTask('Changed elsewhere', U.alice, '<@U_BOB>');
    const svc = (email: string) => h.seed.users.find((u) => u.email === email)!.id;
    const info = await h.work.getTask(task);
    await h.work.updateTask(task, {
      projectId: info.projectId ?? '',
      taskUsers: [svc('bob@example.com'), svc('erin@example.com')],
    });
    await h.worklink.parts.indexRefresh.runTeam(h.teamId);
    await settle();
    expect(assignmentsTo(U.erin, task)).toHaveLength(1);
    expect(assignmentsTo(U.erin, task)[0]!.body.text).toContain(
      'You were assigned *Changed elsewhere*',
    );
    expect(assignmentsTo(U.bob, task)).toHaveLength(1);
  });

  it('tells assignees and the creator of a comment, quoted, with Reply and Details', async () => {
    const long = `Looks good, one thing: ${'the error message should say more. '.repeat(12)}`;
    expect(await run(`comment ${taskId} ${long}`, U.bob)).toContain('Added your comment');
    await settle();
    const [toCarol] = commentsTo(U.carol);
    const [toAlice] = commentsTo(U.alice);
    expect(commentsTo(U.carol)).toHaveLength(1);
    expect(commentsTo(U.dan)).toHaveLength(1);
    expect(commentsTo(U.alice)).toHaveLength(1);
    expect(commentsTo(U.bob)).toHaveLength(0);
    const blocks = JSON.stringify(toCarol!.body.blocks);
    expect(blocks).toContain('<@U_BOB> commented on *Fix the login page*');
    expect(blocks).toContain('You are assigned to it.');
    expect(JSON.stringify(toAlice!.body.blocks)).toContain('You created this task.');
    // The first 300 characters, then "…".
    const quoted = long.trim().slice(0, 299);
    expect(blocks).toContain(`>${quoted}…`);
    expect(blocks).not.toContain(long.trim().slice(0, 301));
    const buttons = (
      toCarol!.body.blocks as {
        type: string;
        elements?: { action_id?: string; text?: { text: string } }[];
      }[]
    )
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? [])
      .map((e) => [e.action_id, e.text?.text]);
    expect(buttons.slice(0, 2)).toEqual([
      [ACTION.taskComment, 'Reply'],
      [ACTION.taskOpen, 'Details'],
    ]);
    // "Open in …" where the task's address is known (the embedded service's pages).
    expect(buttons.slice(2).every(([id]) => id === 'open_in_service')).toBe(true);

    // Reply opens the comment modal for this task.
    const reply = await h.slack.blockAction(
      { actionId: ACTION.taskComment, value: taskId },
      { userId: U.carol, channelId: 'D_CAROL' },
    );
    await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === reply.triggerId);
  });

  it('tells the creator when someone else completes the task, and nobody else', async () => {
    expect(await run(`done ${taskId}`, U.carol)).toMatch(/^Marked \*Fix the login page\* complete/);
    await settle();
    expect(completionsTo(U.alice)).toHaveLength(1);
    expect(completionsTo(U.alice)[0]!.body.text).toBe(
      '<@U_CAROL> completed *Fix the login page*, a task you created.',
    );
    for (const u of [U.bob, U.carol, U.dan]) expect(completionsTo(u)).toHaveLength(0);

    // The creator completing their own task is told nothing.
    const own = await newTask('Write release notes', U.alice, '<@U_BOB>');
    await run(`done ${own}`, U.alice);
    await settle();
    expect(completionsTo(U.alice, own)).toHaveLength(0);
    expect(
      dmsTo(U.bob, about(own)).filter((c) => !c.body.text?.toString().includes('assigned')),
    ).toHaveLength(0);
  });

  it('honours each person’s settings, from the command and from App Home', async () => {
    const task = await newTask('Settings check', U.alice, '<@U_CAROL>');
    expect(await run('notify comments off', U.carol)).toBe(
      'Comments on tasks assigned to you or created by you is now *off* for you.',
    );
    expect(await run('notify completed off', U.alice)).toContain('is now *off* for you.');
    expect(await run('notify assigned off', U.dan)).toContain('is now *off* for you.');
    const shown = await run('notify', U.dan);
    expect(shown).toContain('Tasks assigned to you: *off* (`assigned`)');
    expect(shown).toContain('Quiet hours: *off*');

    await run(`comment ${task} Carol will not hear of this`, U.bob);
    await run(`assign ${task} <@U_DAN>`, U.bob);
    await run(`done ${task}`, U.bob);
    await settle();
    expect(commentsTo(U.alice, task)).toHaveLength(1); // the creator still hears of comments
    expect(commentsTo(U.carol, task)).toHaveLength(0);
    expect(assignmentsTo(U.dan, task)).toHaveLength(0);
    expect(completionsTo(U.alice, task)).toHaveLength(0);
    const skipped = (await h.worklink.store.outbox.forTask(h.teamId, task)).find(
      (r) => r.slackUserId === U.dan,
    );
    expect(skipped?.lastError).toBe('assigned notifications turned off by the recipient');

    // App Home shows the same as checkboxes; ticking saves them.
    await h.slack.event({ type: 'app_home_opened', user: U.dan, tab: 'home' });
    const home = await h.fake.waitForCall('views.publish', (c) => c.body.user_id === U.dan);
    const boxes = JSON.stringify(home.body.view);
    expect(boxes).toContain(`"action_id":"${ACTION.homeNotify}"`);
    expect(boxes).toContain('"initial_options":[{"text":{"type":"plain_text","text":"Comments');
    h.fake.reset();
    await h.slack.blockAction(
      {
        actionId: ACTION.homeNotify,
        type: 'checkboxes',
        selectedOptions: [{ value: 'assigned' }, { value: 'completed' }],
      },
      { userId: U.dan, view: { id: 'V_HOME', type: 'home' } },
    );
    await waitFor(
      async () => !(await h.worklink.store.notifySettings.enabled(h.teamId, U.dan, 'comments')),
    );
    expect(await h.worklink.store.notifySettings.all(h.teamId, U.dan)).toEqual({
      assigned: true,
      comments: false,
      completed: true,
      digest: false,
    });
    await h.fake.waitForCall('views.publish', (c) => c.body.user_id === U.dan);
    expect(await run('notify', U.dan)).toContain('Tasks assigned to you: *on*');
    // Bad input changes nothing.
    expect(await run('notify quiet 25:00-08:00', U.dan)).toContain('is not a time window');
    expect(await h.worklink.store.notifySettings.quietHours(h.teamId, U.dan)).toBeUndefined();
  });

  it('holds DMs during quiet hours and sends them as one message when the hours end', async () => {
    const task = await newTask('Night work', U.alice, '<@U_BOB>');
    // Erin's Slack time zone is UTC.
    expect(await run('notify quiet 20:00-08:00', U.erin)).toBe(
      'Quiet hours are now *20:00-08:00* in your time zone (UTC). DMs that come then wait until 08:00; several come as one message.',
    );
    fakeNow = Date.parse('2026-11-23T21:30:00Z');
    await run(`assign ${task} <@U_ERIN>`, U.alice);
    await run(`comment ${task} Late thought`, U.bob);
    await settle();
    expect(dmsTo(U.erin, about(task))).toHaveLength(0);
    expect(await h.worklink.store.heldDms.heldFor(h.teamId, U.erin)).toHaveLength(2);

    fakeNow = Date.parse('2026-11-24T07:59:00Z');
    expect(await h.worklink.parts.quietHours!.runOnce()).toBe(0);
    fakeNow = Date.parse('2026-11-24T08:00:00Z');
    // (Its own timer may have released them first: either way they are released once.)
    await h.worklink.parts.quietHours!.runOnce();
    expect(await h.worklink.parts.quietHours!.runOnce()).toBe(0);
    expect(await h.worklink.store.heldDms.heldFor(h.teamId, U.erin)).toEqual([]);
    await settle();
    const toErin = (h.fake.callsOf('chat.postMessage') as RecordedCall[]).filter(
      (c) => c.body.channel === U.erin,
    );
    expect(toErin).toHaveLength(1);
    expect(toErin[0]!.body.text).toBe('While your quiet hours were on, 2 notifications came in.');
    const listed = JSON.stringify(toErin[0]!.body.blocks);
    expect(listed).toContain('<@U_ALICE> assigned you *Night work*');
    expect(listed).toContain('<@U_BOB> commented on *Night work*: Late thought');

    // One held DM goes out as it was; after `quiet off` nothing is held.
    fakeNow = Date.parse('2026-11-24T23:00:00Z');
    await run(`comment ${task} Another one`, U.bob);
    await settle();
    expect(await h.worklink.store.heldDms.heldFor(h.teamId, U.erin)).toHaveLength(1);
    fakeNow = Date.parse('2026-11-25T08:01:00Z');
    await h.worklink.parts.quietHours!.runOnce();
    await settle();
    expect(commentsTo(U.erin, task)).toHaveLength(1);
    expect(commentsTo(U.erin, task)[0]!.body.text).toContain('Another one');

    expect(await run('notify quiet off', U.erin)).toBe(
      'Quiet hours are now *off*: DMs come as they happen.',
    );
    fakeNow = Date.parse('2026-11-25T23:00:00Z');
    await run(`comment ${task} Straight through`, U.bob);
    await settle();
    expect(commentsTo(U.erin, task)).toHaveLength(2);
    fakeNow = undefined;
  });
});

describe('DM kinds across a restart (hosted-style service, same files)', () => {
  let hosted: HostedFake;
  let dataDir: string;
  let h: HostedHarness;
  let fakeNow: number | undefined;
  const start = () =>
    startHostedHarness({
      fake: hosted,
      dataDir,
      connect: true,
      clock: () => fakeNow ?? Date.now(),
    });

  beforeAll(async () => {
    hosted = await startHostedFake();
    dataDir = mkdtempSync(join(tmpdir(), 'worklink-dm-kinds-'));
    h = await start();
    await h.worklink.store.channelProjects.link(
      h.teamId,
      'C_GENERAL',
      hosted.projects.website,
      'U_ALICE',
    );
  });
  afterAll(async () => {
    await h?.stop();
    await hosted?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const commentDms = (to: string) =>
    (h.fake.callsOf('chat.postMessage') as RecordedCall[]).filter(
      (c) => c.body.channel === to && String(c.body.text).includes('commented on'),
    );

  it('neither repeats a comment DM nor loses a held one', async () => {
    await h.slack.slashCommand('add Survives restarts <@U_BOB>', { userId: 'U_ALICE' });
    const task = await waitFor(
      async () => (await h.worklink.store.taskIndex.search(h.teamId, 'Survives restarts'))[0],
    );
    await waitFor(async () => await h.worklink.store.taskCreators.get(h.teamId, task.taskId));
    // Bob holds his DMs for the night; Carol comments at 23:00 Berlin.
    await h.slack.slashCommand('notify quiet 22:00-07:00', { userId: 'U_BOB' });
    fakeNow = Date.parse('2026-11-23T22:00:00Z');
    await h.slack.slashCommand(`comment ${task.taskId} Before the restart`, { userId: 'U_CAROL' });
    await waitFor(() => commentDms('U_ALICE').length === 1);
    await waitFor(
      async () => (await h.worklink.store.heldDms.heldFor(h.teamId, 'U_BOB')).length === 1,
    );
    const key = (commentDms('U_ALICE')[0]!.body.metadata as { event_payload: { task_id: string } })
      .event_payload.task_id;

    await h.stop();
    h = await start();
    // The same comment told again (a replayed event) is not a second DM…
    h.worklink.parts.activity.emit(h.teamId, {
      kind: 'commented',
      taskId: task.taskId,
      actor: { slackUserId: 'U_CAROL' },
      text: 'Before the restart',
      commentId: key.split(':')[2],
    });
    await h.worklink.parts.activity.idle();
    // …and Bob's held DM goes out once when his night ends.
    fakeNow = Date.parse('2026-11-24T06:00:00Z');
    await h.worklink.parts.quietHours!.runOnce();
    await waitFor(() => commentDms('U_BOB').length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(commentDms('U_ALICE')).toHaveLength(0);
    expect(commentDms('U_BOB')).toHaveLength(1);
    expect(commentDms('U_BOB')[0]!.body.text).toContain('Before the restart');
  });
});
