/**
 * `/work list mine` and `/work list @someone` through signed slash commands: open tasks of
 * that person from the task index, grouped overdue / today / this week / later / no date in
 * the VIEWER's time zone (fake clock), paged; and `/work list` marking overdue tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINE_NEXT } from '../../../src/slack/tasks/mine/my-tasks-view.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel, shown } from './helpers.js';

// Wednesday 2026-11-25, 16:00 UTC: 17:00 in Berlin (Bob), already Thursday 01:00 in Tokyo (Carol).
const NOW = Date.parse('2026-11-25T16:00:00Z');
let h: Harness;
let website: string;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;
const appWork = async () =>
  h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!);

async function reply(command: string, userId: string) {
  const res = await h.slack.slashCommand(command, { userId });
  expect(res.status).toBe(200);
  return h.replyTo(res);
}

beforeAll(async () => {
  h = await startHarness({ connect: true, clock: () => NOW });
  website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  const bob = seedUser('Bob').id;
  const dan = seedUser('Dan').id;
  for (const [name, dueDate] of [
    ['Later thing', '2026-12-10'],
    ['No date thing', undefined],
    ['Today thing', '2026-11-25'],
    ['Friday thing', '2026-11-27'],
    ['Late thing', '2026-11-24'],
  ] as const) {
    await (await appWork()).createTask({
      projectId: website,
      name,
      taskUsers: [bob],
      ...(dueDate ? { dueDate } : {}),
    });
  }
  for (let i = 1; i <= 21; i++) {
    await (await appWork()).createTask({
      projectId: website,
      name: `Dan chore ${i}`,
      taskUsers: [dan],
    });
  }
});
afterAll(() => h?.stop());

describe('/work list mine', () => {
  it('groups my open tasks: overdue (marked), today, this week, later, no date', async () => {
    const list = await reply('list mine', h.users.bob.id);
    expect(list.text).toBe('Your open tasks (1–5 of 5, 1 overdue)');
    const text = shown(list.blocks);
    const order = ['Late thing', 'Today thing', 'Friday thing', 'Later thing', 'No date thing'];
    const at = order.map((n) => text.indexOf(n));
    expect(at.every((x) => x > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).toContain(':warning: overdue (due Tue, Nov 24, 2026)');
    for (const heading of ['Overdue', 'Due today', 'Due this week', 'Due later', 'No due date']) {
      expect(text).toContain(heading);
    }
    expect(text).not.toContain('Dan chore');
  });

  it('shows someone else’s tasks, judged in the viewer’s time zone, paged by 20', async () => {
    // Carol is already on Thursday: Bob's "today" task is overdue for her.
    const bobs = await reply('list <@U_BOB|bob>', h.users.carol.id);
    expect(bobs.text).toBe('Open tasks of <@U_BOB> (1–5 of 5, 2 overdue)');

    const dans = await reply('list <@U_DAN|dan>', h.users.bob.id);
    expect(dans.text).toBe('Open tasks of <@U_DAN> (1–20 of 21)');
    expect(shown(dans.blocks)).toContain('Page 1 of 2');
    const next = (dans.blocks as { elements?: { action_id: string; value: string }[] }[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === MINE_NEXT)!;
    const res = await h.slack.blockAction(
      { actionId: MINE_NEXT, value: next.value },
      { userId: h.users.bob.id },
    );
    const page2 = await h.replyTo(res);
    expect(page2.replace_original).toBe(true);
    expect(page2.text).toBe('Open tasks of <@U_DAN> (21–21 of 21)');
  });

  it('says so when someone has no open tasks or no account', async () => {
    expect((await reply('list mine', h.users.erin.id)).text).toBe(
      'You have no open tasks in the projects Worklink watches.',
    );
    expect((await reply('list <@U_NOBODY>', h.users.bob.id)).text).toContain(
      'Could not look up <@U_NOBODY> in Slack',
    );
  });
});

describe('/work list', () => {
  it('marks overdue open tasks, judged in the viewer’s time zone', async () => {
    await linkChannel(h, 0);
    const text = shown((await reply('list open', h.users.bob.id)).blocks);
    expect(text).toContain(':warning: overdue, due Tue, Nov 24, 2026');
    expect(text).not.toContain(':warning: overdue, due Wed, Nov 25, 2026');
    const tokyo = shown((await reply('list open', h.users.carol.id)).blocks);
    expect(tokyo).toContain(':warning: overdue, due Wed, Nov 25, 2026');
  });
});
