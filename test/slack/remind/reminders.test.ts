/**
 * Reminders (issue 22, section 3) with a fake clock, through signed slash commands and
 * buttons against the embedded service: `/work remind #N tomorrow 9am` sets one (read in the
 * person's Slack time zone); `/work remind` lists them with Cancel; at its time one DM with the
 * task's current state and buttons — once, also when looked at again and after a restart on
 * the same files; a task done meanwhile is said to be done; quiet hours hold it; "Remind me"
 * from a task's overflow sets one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';

const at = (iso: string) => Date.parse(iso);
// Monday morning in Berlin (Bob's zone); before the real clock, so the outbox sends at once.
let now = at('2026-11-16T07:00:00Z');
const dataDir = mkdtempSync(join(tmpdir(), 'worklink-remind-'));
let h: Harness;
let website: string;
const BOB = 'U_BOB';

const dmsTo = (user: string) =>
  h.fake.callsOf('chat.postMessage').filter((c) => c.body.channel === user);
const shown = (x: unknown) => JSON.stringify(x);

async function say(text: string, userId = BOB) {
  const res = await h.slack.slashCommand(text, { userId, channelId: 'C_GENERAL' });
  expect(res.status).toBe(200);
  return (await h.replyTo(res)).text ?? '';
}

async function task(name: string) {
  const t = await h.work.createTask({ projectId: website, name });
  // Known to Worklink (its index) under its number, as a look would make it.
  await h.worklink.deps.workClients
    .for((await h.worklink.store.connections.get(h.teamId))!)
    .getTask(t.taskId);
  return t;
}

async function fire() {
  await h.worklink.parts.reminders!.runDue();
  h.worklink.store.outbox.changed();
}

beforeAll(async () => {
  h = await startHarness({ connect: true, dataDir, clock: () => now });
  website = h.seed.projects[0]!.projectId;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', website, 'U_ALICE');
});
afterAll(async () => {
  await h?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/work remind', () => {
  it('sets a reminder in the person’s time zone, lists it, fires once with the task’s state', async () => {
    const t = await task('Water the plants');
    const reply = await say(`remind ${t.taskId} tomorrow 9am`);
    expect(reply).toContain('I will remind you of *Water the plants* on Nov 17, 2026, 9:00');
    const [r] = await h.worklink.store.reminders.pending(h.teamId, BOB);
    // 09:00 in Berlin is 08:00 UTC.
    expect(r?.dueAt).toBe(at('2026-11-17T08:00:00Z'));
    const list = await h.slack.slashCommand('remind', { userId: BOB });
    const listed = await h.replyTo(list);
    expect(shown(listed.blocks)).toContain('Water the plants');
    expect(shown(listed.blocks)).toContain(ACTION.reminderCancel);

    // Not yet.
    now = at('2026-11-17T07:59:00Z');
    expect(await h.worklink.parts.reminders!.runDue()).toBe(0);
    now = at('2026-11-17T08:00:00Z');
    await fire();
    const dm = await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === BOB);
    expect(shown(dm.body)).toContain('Reminder:* *Water the plants*');
    expect(shown(dm.body)).toContain(ACTION.taskComplete);
    // Looked at again: nothing more.
    expect(await h.worklink.parts.reminders!.runDue()).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(dmsTo(BOB).filter((c) => shown(c.body).includes('Water the plants'))).toHaveLength(1);
    expect(await h.worklink.store.reminders.pending(h.teamId, BOB)).toEqual([]);
  });

  it('says so when the task was done meanwhile', async () => {
    const t = await task('Send the invoice');
    await say(`remind ${t.taskId} in 2 hours`);
    const details = await h.work.getProjectDetails(website);
    const done = details.Status?.find((s) => s.Type === 3)?._id;
    await h.work.updateTask(t.taskId, { projectId: website, statusId: done });
    now += 2 * 3_600_000;
    await fire();
    const dm = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === BOB && shown(c.body).includes('Send the invoice'),
    );
    expect(shown(dm.body)).toContain('already done');
    expect(shown(dm.body)).not.toContain(ACTION.taskComplete);
  });

  it('cancels from the list, and refuses what it cannot read', async () => {
    const t = await task('Call the plumber');
    await say(`remind ${t.taskId} next week`);
    const [r] = await h.worklink.store.reminders.pending(h.teamId, BOB);
    await h.slack.blockAction({ actionId: ACTION.reminderCancel, value: r!.id }, { userId: BOB });
    await h.waitFor(
      async () => (await h.worklink.store.reminders.pending(h.teamId, BOB)).length === 0,
    );
    expect(await say(`remind ${t.taskId} whenever you like`)).toContain('Nothing was set');
    expect(await say('remind tomorrow')).toContain('Nothing was set');
    expect(await h.worklink.store.reminders.pending(h.teamId, BOB)).toEqual([]);
  });

  it('holds a reminder through quiet hours', async () => {
    await say('notify quiet 20:00-08:00');
    const t = await task('Quiet one');
    now = at('2026-11-18T18:00:00Z'); // 19:00 Berlin
    await say(`remind ${t.taskId} in 2 hours`); // 21:00 Berlin: quiet
    now += 2 * 3_600_000;
    await fire();
    await h.waitFor(
      async () => (await h.worklink.store.heldDms.heldFor(h.teamId, BOB)).length === 1,
    );
    expect(dmsTo(BOB).filter((c) => shown(c.body).includes('Quiet one'))).toEqual([]);
    await say('notify quiet off');
  });

  it('"Remind me" from a task’s overflow sets one', async () => {
    const t = await task('From the overflow');
    await h.slack.blockAction(
      {
        actionId: ACTION.remindMe,
        type: 'overflow',
        selectedOption: { value: `hour:${t.taskId}` },
      },
      { userId: BOB },
    );
    const r = await h.waitFor(async () =>
      (await h.worklink.store.reminders.pending(h.teamId, BOB)).find((x) => x.taskId === t.taskId),
    );
    expect(r.dueAt).toBe(now + 3_600_000);
  });
});

describe('across a restart', () => {
  it('a reminder set before a restart fires once after it', async () => {
    const t = await task('Survives restarts');
    await say(`remind ${t.taskId} in 1 hour`);
    const seed = h.seed;
    await h.worklink.stop();
    // Same files, same service: a new app.
    const again = await startHarness({ dataDir, clock: () => now });
    try {
      await again.worklink.store.connections.get(h.teamId);
      now += 3_600_000;
      await again.worklink.parts.reminders!.runDue();
      again.worklink.store.outbox.changed();
      const dm = await again.fake.waitForCall(
        'chat.postMessage',
        (c) => c.body.channel === BOB && shown(c.body).includes('Survives restarts'),
      );
      expect(dm).toBeDefined();
      expect(seed.apiKey).toBeTruthy();
      expect(await again.worklink.parts.reminders!.runDue()).toBe(0);
    } finally {
      await again.stop();
    }
  });
});
