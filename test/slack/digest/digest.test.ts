/**
 * The daily digest with a fake clock: at 09:00 on a weekday in each person's Slack time zone
 * (Carol in Tokyo, Bob in Berlin) one DM through the outbox with overdue tasks and those due
 * today and tomorrow, with Mark complete / Open; never twice a day, also after a restart on
 * the same files; nothing for someone with nothing due, on weekends, or who turned it off.
 * `/work digest` and `/work notify` through signed slash commands.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { sqliteHandle } from '../../support/sqlite-handle.js';

const at = (iso: string) => Date.parse(iso);
let now = at('2026-11-23T00:00:00Z'); // Monday
const dataDir = mkdtempSync(join(tmpdir(), 'worklink-digest-'));
let h: Harness;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;
const appWork = async () =>
  h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!);
const dmsTo = (user: string) =>
  h.fake.callsOf('chat.postMessage').filter((c) => c.body.channel === user);
const digestRowsOf = (user: string) =>
  sqliteHandle(h.worklink.store)
    .prepare("SELECT * FROM notify_outbox WHERE service_user_id = ? AND task_id LIKE 'digest:%'")
    .all(`slack:${user}`) as { task_id: string; status: string }[];

beforeAll(async () => {
  h = await startHarness({ connect: true, dataDir, clock: () => now });
  const website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  const task = async (name: string, who: string, dueDate?: string) =>
    (await appWork()).createTask({
      projectId: website,
      name,
      taskUsers: [seedUser(who).id],
      ...(dueDate ? { dueDate } : {}),
    });
  await task('Carol overdue', 'Carol', '2026-11-20');
  await task('Carol tomorrow', 'Carol', '2026-11-24');
  await task('Carol next month', 'Carol', '2026-12-20');
  await task('Bob today', 'Bob', '2026-11-23');
  await task('Dan next month', 'Dan', '2026-12-20');
  h.fake.reset();
});
afterAll(async () => {
  await h?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the daily digest', () => {
  it('goes out at 09:00 in each person’s own time zone, once', async () => {
    now = at('2026-11-22T23:59:00Z'); // Tokyo 08:59 Monday; Berlin Sunday night
    expect(await h.worklink.parts.digest!.runOnce()).toBe(0);

    now = at('2026-11-23T00:00:00Z'); // Tokyo 09:00
    expect(await h.worklink.parts.digest!.runOnce()).toBe(1);
    const dm = await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_CAROL');
    expect(dm.body.text).toBe('Your tasks for Mon, Nov 23, 2026: 1 overdue, 1 due tomorrow.');
    const blocks = JSON.stringify(dm.body.blocks);
    expect(blocks).toContain('Carol overdue');
    expect(blocks).toContain(':warning: overdue (due Fri, Nov 20, 2026)');
    expect(blocks).toContain('Carol tomorrow');
    expect(blocks).not.toContain('Carol next month');
    // One menu per row: Mark complete and Details (row-menu.ts values).
    expect(blocks).toContain(ACTION.taskRowMenu);
    expect(blocks).toContain('"value":"complete:');

    now = at('2026-11-23T08:00:00Z'); // Berlin 09:00, Tokyo 17:00
    expect(await h.worklink.parts.digest!.runOnce()).toBe(1);
    const bob = await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_BOB');
    expect(bob.body.text).toBe('Your tasks for Mon, Nov 23, 2026: 1 due today.');

    // Looking again the same morning queues nothing.
    now = at('2026-11-23T09:30:00Z');
    expect(await h.worklink.parts.digest!.runOnce()).toBe(0);
    // Dan (Los Angeles) has nothing due: at his 09:00 the day is marked done, no DM, ever.
    now = at('2026-11-23T17:05:00Z');
    expect(await h.worklink.parts.digest!.runOnce()).toBe(0);
    expect(digestRowsOf('U_DAN')).toEqual([
      expect.objectContaining({ task_id: 'digest:2026-11-23', status: 'skipped' }),
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(dmsTo('U_CAROL')).toHaveLength(1);
    expect(dmsTo('U_BOB')).toHaveLength(1);
    expect(dmsTo('U_DAN')).toHaveLength(0);
  });

  it('is not sent again after a restart the same day', async () => {
    await h.stop();
    h = await startHarness({ dataDir, clock: () => now });
    // The next minute's look (this minute's was made, before the restart).
    now += 60_000;
    expect(await h.worklink.parts.digest!.runOnce()).toBe(0);
    expect(digestRowsOf('U_CAROL')).toHaveLength(1);
    expect(digestRowsOf('U_BOB')).toHaveLength(1);
    // The next weekday it comes again.
    now = at('2026-11-24T00:10:00Z'); // Tokyo Tuesday 09:10
    expect(await h.worklink.parts.digest!.runOnce()).toBe(1);
    expect(
      digestRowsOf('U_CAROL')
        .map((r) => r.task_id)
        .sort(),
    ).toEqual(['digest:2026-11-23', 'digest:2026-11-24']);
  });

  it('skips weekends and people who turned it off', async () => {
    now = at('2026-11-28T08:30:00Z'); // Saturday in Berlin and Tokyo
    expect(await h.worklink.parts.digest!.runOnce()).toBe(0);

    const res = await h.slack.slashCommand('notify digest off', { userId: 'U_BOB' });
    expect((await h.replyTo(res)).text).toBe(
      'Daily digest (weekdays at 09:00 your time) is now *off* for you.',
    );
    now = at('2026-11-30T08:30:00Z'); // Monday, Berlin 09:30
    await h.worklink.parts.digest!.runOnce();
    expect(digestRowsOf('U_BOB').map((r) => r.task_id)).toEqual(['digest:2026-11-23']);
  });
});

describe('/work digest and /work notify', () => {
  it('shows my digest now, and says when there is nothing', async () => {
    now = at('2026-11-23T10:00:00Z');
    const mine = await h.replyTo(await h.slack.slashCommand('digest', { userId: 'U_CAROL' }));
    expect(mine.text).toBe('Your tasks for Mon, Nov 23, 2026: 1 overdue, 1 due tomorrow.');
    const dan = await h.replyTo(await h.slack.slashCommand('digest', { userId: 'U_DAN' }));
    expect(dan.text).toBe('Nothing overdue, due today or due tomorrow (Mon, Nov 23, 2026).');
  });

  it('shows my settings and refuses what is not a setting', async () => {
    const shown = await h.replyTo(await h.slack.slashCommand('notify', { userId: 'U_ERIN' }));
    expect(shown.text).toContain('Daily digest (weekdays at 09:00 your time): *on*');
    const bad = await h.replyTo(
      await h.slack.slashCommand('notify digest maybe', { userId: 'U_ERIN' }),
    );
    expect(bad.text).toBe(
      '`digest maybe` is not a setting. Use `/work notify <assigned|comments|completed|digest> <on|off>` or `/work notify quiet 20:00-08:00` (`quiet off`); nothing was changed.',
    );
    expect(await h.worklink.store.notifySettings.enabled(h.teamId, 'U_ERIN', 'digest')).toBe(true);
  });
});
