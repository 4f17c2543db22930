/**
 * One status vocabulary (src/slack/format/status-words.ts), through signed requests: a status
 * is named only when it is known — by its id, or the name the task index was told — and is
 * otherwise "Open" / "Done", in the same words on the card and on the `/work list mine` rows.
 * A task moved to In Progress in the service reads "In Progress" on both (the card used to
 * say "Open" while the row said "In Progress"); a project with one open status no longer gets
 * its name guessed from the done flag.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cardDataFrom } from '../../../src/slack/tasks/card/load.js';
import { mineRowText } from '../../../src/slack/tasks/mine/my-tasks-view.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel, statusesOf } from './helpers.js';

let h: Harness;
let projectId: string;

const EVENTS_SECRET = 'events-secret-for-tests-0123456789abcdef';

beforeAll(async () => {
  h = await startHarness({
    connect: true,
    configure: (c) => ({ ...c, workEventsSecret: EVENTS_SECRET }),
  });
  // The service's events reach the app (as startWorklink subscribes its own embedded service).
  h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
  projectId = await linkChannel(h, 0);
});
afterAll(() => h?.stop());

async function say(text: string, userId?: string) {
  const res = await h.slack.slashCommand(text, userId ? { userId } : {});
  expect(res.status).toBe(200);
  return h.replyTo(res);
}

/** The card's Status field, as `/work task` shows it. */
async function cardStatus(taskId: string): Promise<string | undefined> {
  const card = JSON.stringify((await say(`task ${taskId}`)).blocks);
  return /\*Status\*\\n([^"]*)"/.exec(card)?.[1];
}

it('names In Progress on the card and the list row alike, and says Open when nothing is known', async () => {
  await h.slack.slashCommand('add Paint the fence @bob');
  await h.slack.slashCommand('add Sweep the porch @bob');
  const tasks = await h.waitFor(async () => {
    const list = await h.work.listTasks({ projectId });
    const paint = list.find((t) => t.taskName === 'Paint the fence');
    const sweep = list.find((t) => t.taskName === 'Sweep the porch');
    return paint && sweep ? { paint: paint.taskId, sweep: sweep.taskId } : undefined;
  });
  const inProgress = (await statusesOf(h, projectId)).find((s) => s.Name === 'In Progress');
  // Moved in the service: its event tells the index the status's name.
  await h.work.updateTask(tasks.paint, { projectId, statusId: inProgress!._id });
  await h.waitFor(
    async () =>
      (await h.worklink.store.taskIndex.get(h.teamId, tasks.paint))?.statusName === 'In Progress',
  );

  expect(await cardStatus(tasks.paint)).toBe('In Progress');
  expect(await cardStatus(tasks.sweep)).toBe('Open');
  const rows = JSON.stringify((await say('list mine', h.users.bob.id)).blocks);
  expect(rows).toMatch(/Paint the fence\*[^"]* · In Progress"/);
  expect(rows).toMatch(/Sweep the porch\*[^"]* · Open"/);
});

it('does not guess a status name from the done flag (one open status is still not known)', () => {
  const project = {
    id: 'p1',
    name: 'Small project',
    priorityEnabled: true,
    defaultPriority: 0,
    estimateEnabled: true,
    milestoneEnabled: true,
    groupsEnabled: false,
    statuses: [
      { _id: 's_todo', Name: 'To Do', Type: 1, Index: 0, Default: true },
      { _id: 's_done', Name: 'Finished', Type: 3, Index: 1 },
    ],
    groups: [],
  };
  const person = (id: string) => ({ name: id });
  const facts = { taskId: 't1', name: 'Water the plants', assigneeIds: [] };
  expect(cardDataFrom({ ...facts, done: false }, project, person).status.name).toBe('Open');
  expect(cardDataFrom({ ...facts, done: true }, project, person).status.name).toBe('Done');
  // Known by id or by the index's name: named.
  expect(
    cardDataFrom({ ...facts, done: true, statusId: 's_done' }, project, person).status.name,
  ).toBe('Finished');
  expect(
    cardDataFrom({ ...facts, done: false, statusName: 'In Review' }, project, person).status.name,
  ).toBe('In Review');
  // A list row of a task whose status nobody told says the same word as its card.
  const row = {
    teamId: 'T',
    taskId: 't1',
    projectId: 'p1',
    name: 'Water the plants',
    done: false,
    gone: false,
    assigneeIds: [],
    seenAt: 0,
    group: 'none' as const,
    projectName: 'Small project',
  };
  expect(mineRowText(row)).toMatch(/ · Open$/);
});
