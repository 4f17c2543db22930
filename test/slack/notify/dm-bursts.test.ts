/**
 * DM bursts, end to end: the embedded service's signed events, the real app with
 * DM_BURST_SECONDS = 60, the fake Slack Web API and signed requests. Sixty tasks assigned to
 * Bob in the service give Bob his first three DMs as they come and then ONE message — "You
 * were assigned 57 tasks in Website relaunch", the first five named, "See all in My tasks" —
 * instead of sixty DMs over a minute. Nothing is lost: every held row is marked sent
 * in the one message, which is itself an outbox row (a failed send of it is retried); quiet
 * hours still hold, and what they held goes out as one message when they are turned off.
 * On both store engines (the burst windows and held rows are the store's).
 */
import { randomBytes } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MINE_FROM_DM } from '../../../src/slack/notify/grouped-message.js';
import { SENT_GROUPED } from '../../../src/store/index.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { dmAttempts, dmsTo } from '../../support/notify-slack.js';
import { usePostgres } from '../../support/postgres.js';
import { engineWanted } from '../../support/store-engines.js';

const EVENTS_SECRET = 'events-secret-for-tests-0123456789abcdef';
const BOB = 'U_BOB';
const postgres = usePostgres();
const engines = (['SQLite', 'PostgreSQL'] as const).filter(engineWanted);

describe.each(engines)('on %s', (engine) => {
  let h: Harness;
  /** The app's clock runs this far ahead of the wall clock (a window's end without waiting). */
  let ahead = 0;
  let projectId: string;
  let bob: string;

  beforeAll(async () => {
    const databaseUrl = engine === 'PostgreSQL' ? await postgres.freshDatabase() : undefined;
    ahead = 0;
    h = await startHarness({
      connect: true,
      clock: () => Date.now() + ahead,
      configure: (c) => ({
        ...c,
        workEventsSecret: EVENTS_SECRET,
        dmBurstSeconds: 60,
        ...(databaseUrl ? { databaseUrl, secretsKey: randomBytes(32) } : {}),
      }),
    });
    h.worklink.parts.notifications.tuning.eventGraceMs = 300;
    // The service's events reach the app (as startWorklink subscribes its own embedded service).
    h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
    projectId = h.seed.projects[0]!.projectId;
    // A project Worklink watches: its tasks are on the people's "My tasks".
    await h.worklink.store.knownProjects.remember(h.teamId, projectId, 'Website relaunch');
    bob = h.seed.users.find((u) => u.email === 'bob@example.com')!.id;
  });
  afterAll(() => h?.stop());
  afterEach(() => h.fake.script('chat.postMessage', undefined));

  const text = (c: RecordedCall) => String(c.body.text);
  const held = () => h.worklink.store.heldDms.heldFor(h.teamId, BOB);

  async function assignToBob(names: readonly string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const name of names) {
      ids.push((await h.work.createTask({ projectId, name, taskUsers: [bob] })).taskId);
    }
    return ids;
  }

  it('sends the first few DMs of a burst as they come, the rest as one message; nothing is lost', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `Burst task ${i + 1}`);
    const ids = await assignToBob(names);
    await h.waitFor(async () => (await held()).length === 57 && dmsTo(h.fake, BOB).length === 3, {
      timeoutMs: 30_000,
    });
    const alone = dmsTo(h.fake, BOB);
    expect(alone).toHaveLength(3);
    for (const dm of alone) expect(text(dm)).toMatch(/assigned you \*Burst task \d+\*/);
    expect((await held()).every((d) => d.cause === 'burst' && d.kind === 'assigned')).toBe(true);

    // The one message's first send fails (500): it is retried like any DM.
    h.fake.script('chat.postMessage', (body, n) =>
      body.channel === BOB && n === 1 ? { status: 500, body: { ok: false } } : undefined,
    );
    // The window's end: released as one message.
    ahead = 61_000;
    expect(await h.worklink.parts.quietHours.runOnce()).toBe(1);
    const isGrouped = (c: RecordedCall) => text(c).startsWith('You were assigned');
    const grouped = await h.waitFor(
      () => dmsTo(h.fake, BOB).find((c) => isGrouped(c) && c.doneSeq !== undefined),
      { timeoutMs: 15_000 },
    );
    // Refused once (500), sent on the retry.
    expect(dmAttempts(h.fake).filter((c) => c.body.channel === BOB && isGrouped(c))).toHaveLength(
      2,
    );
    expect(text(grouped)).toBe('You were assigned 57 tasks in Website relaunch.');
    const blocks = JSON.stringify(grouped.body.blocks);
    expect(blocks).toContain('You were assigned 57 tasks in *Website relaunch*');
    expect(blocks.match(/• \*Burst task \d+\*/g)).toHaveLength(5);
    expect(blocks).toContain('…and 52 more.');
    expect(blocks).toContain(MINE_FROM_DM);

    // Every assignment reached Bob: three alone, 57 in the one message; none twice.
    const rows = (await Promise.all(ids.map((id) => h.worklink.store.outbox.forTask(h.teamId, id))))
      .flat()
      .filter((r) => r.slackUserId === BOB);
    expect(rows.filter((r) => r.status === 'sent')).toHaveLength(3);
    expect(rows.filter((r) => r.status === 'skipped' && r.lastError === SENT_GROUPED)).toHaveLength(
      57,
    );
    expect(dmsTo(h.fake, BOB)).toHaveLength(4);
    expect(await held()).toEqual([]);

    // "See all in My tasks": the list (from the task index) comes as a reply; the DM stays.
    await h.worklink.parts.indexRefresh.runTeam(h.teamId);
    const res = await h.slack.blockAction(
      { actionId: MINE_FROM_DM, value: JSON.stringify({ user: BOB, page: 0 }) },
      { userId: BOB, channelId: 'D_BOB' },
    );
    const list = await h.replyTo(res);
    expect(list.text).toMatch(/^Your open tasks/);
    expect(JSON.stringify(list.blocks)).toContain('Burst task 1*');
    expect(list.replace_original).not.toBe(true);
  });

  /** A window around this moment in Bob's zone (Europe/Berlin), `before`–`after` hours. */
  function windowAroundNow(before: number, after: number): string {
    const hour = new TZDate(Date.now() + ahead, 'Europe/Berlin').getHours();
    const at = (hh: number) => `${String((hh + 24) % 24).padStart(2, '0')}:00`;
    return `${at(hour - before)}-${at(hour + after)}`;
  }

  it('still holds DMs for quiet hours, and sends what they held as one message when turned off', async () => {
    // A new window: past the last one.
    ahead += 120_000;
    await h.replyTo(
      await h.slack.slashCommand(`notify quiet ${windowAroundNow(1, 3)}`, { userId: BOB }),
    );
    const before = dmsTo(h.fake, BOB).length;
    await assignToBob(['Quiet task one', 'Quiet task two']);
    await h.waitFor(async () => (await held()).length === 2, { timeoutMs: 15_000 });
    expect((await held()).map((d) => d.cause)).toEqual(['quiet', 'quiet']);
    expect(dmsTo(h.fake, BOB)).toHaveLength(before);

    await h.replyTo(await h.slack.slashCommand('notify quiet off', { userId: BOB }));
    const grouped = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === BOB && text(c).startsWith('While your quiet hours'),
    );
    expect(text(grouped)).toBe(
      'While your quiet hours were on, you were assigned 2 tasks in Website relaunch.',
    );
    expect(JSON.stringify(grouped.body.blocks)).toContain('• *Quiet task two*');
  });
});
