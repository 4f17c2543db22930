/**
 * The digest with many overdue tasks: each section (overdue, today, tomorrow, later this week)
 * shows its count and its first rows, so 22 overdue tasks never hide what is due today and
 * tomorrow. Through `/work digest`, signed, against the embedded service.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, dateIn } from '../../../src/slack/tasks/mine/due-groups.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

it('shows every section with its count and first rows', async () => {
  const website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  const work = h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!);
  const alice = h.seed.users.find((u) => u.email.startsWith('alice'))!.id;
  const today = dateIn('America/New_York', Date.now());
  const task = (name: string, dueDate: string) =>
    work.createTask({ projectId: website, name, taskUsers: [alice], dueDate });
  for (let i = 1; i <= 22; i++) await task(`Late ${i}`, addDays(today, -1 - (i % 5)));
  await task('Ship today A', today);
  await task('Ship today B', today);
  await task('Ship tomorrow', addDays(today, 1));
  await task('Ship in three days', addDays(today, 3));

  const reply = await h.replyTo(await h.slack.slashCommand('digest'));
  expect(reply.text).toMatch(/: 2\d overdue, 2 due today, 1 due tomorrow/);
  const shown = JSON.stringify(reply.blocks);
  expect(shown).toMatch(/:warning: Overdue \(2\d\)/);
  expect(shown).toContain('Due today (2)');
  expect(shown).toContain('Due tomorrow (1)');
  expect(shown).toContain('Ship today A');
  expect(shown).toContain('Ship today B');
  expect(shown).toContain('Ship tomorrow');
  expect(shown).toMatch(/…and 1\d more overdue: `\/work list mine`/);
  expect((reply.blocks ?? []).length).toBeLessThanOrEqual(50);
});
