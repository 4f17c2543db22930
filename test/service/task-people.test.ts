/**
 * A task's people, columns of its row (src/service/task-row-migrations.ts, entries 4 and 5).
 * Subscribers: the creator and the assignees at create, the creator first; an update that
 * adds assignees appends the new ones after them, once each, and keeps everyone already there
 * in place, also when an assignee is removed. Assignees: kept ones stay in place, new ones
 * follow in the order asked, each with who assigned them when. The project's assignee counts
 * (project_assignees, kept by triggers on tasks) follow every create and update.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { raw, startTestService, type TestService } from './support.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t.stop();
});

const call = (url: string, options: Parameters<typeof raw>[1] = {}) =>
  raw(url, { apiKey: t.seed.apiKey, ...options });

/** How many of the project's tasks each user is assigned to, as project_assignees keeps it. */
const counted = (projectId: string) =>
  Object.fromEntries(
    t.service.db
      .prepare('SELECT user_id, tasks FROM project_assignees WHERE project_id = ?')
      .all(projectId)
      .map((r) => {
        const row = z.object({ user_id: z.string(), tasks: z.number() }).parse(r);
        return [row.user_id, row.tasks];
      }),
  );

/** The same, counted from the tasks' own assignees. */
const fromTasks = (projectId: string) =>
  Object.fromEntries(
    t.service.db
      .prepare(
        `SELECT a.value ->> 'userId' AS user_id, COUNT(*) AS tasks
           FROM tasks t, json_each(t.assignees) a WHERE t.project_id = ? GROUP BY 1`,
      )
      .all(projectId)
      .map((r) => {
        const row = z.object({ user_id: z.string(), tasks: z.number() }).parse(r);
        return [row.user_id, row.tasks];
      }),
  );

it('appends new assignees to the subscribers, once each, in order', async () => {
  const [alice, bob, carol, dave] = t.seed.users.map((u) => u.id);
  const projectId = t.seed.projects[1].projectId;
  const before = counted(projectId);
  const plus = (user: string, n: number) => (before[user] ?? 0) + n;
  const created = await call(`${t.service.baseUrl}/task`, {
    method: 'POST',
    body: { projectId, name: 'Followed', taskUsers: [bob] },
  });
  expect(created.status, created.text).toBe(201);
  const { taskId, subscribers } = z
    .object({ taskId: z.string(), subscribers: z.array(z.string()) })
    .parse(created.json);
  expect(subscribers).toEqual([alice, bob]);
  expect(counted(projectId)[bob]).toBe(plus(bob, 1));

  const update = async (taskUsers: string[]) => {
    const answer = await call(`${t.service.altUrl}/task/updateTask/${taskId}`, {
      method: 'PUT',
      body: { projectId, taskUsers },
    });
    expect(answer.status, answer.text).toBe(200);
    const read = await call(`${t.service.baseUrl}/task/${taskId}`);
    const shown = z.object({ subscribers: z.array(z.string()) }).parse(read.json).subscribers;
    expect(counted(projectId)).toEqual(fromTasks(projectId));
    expect(z.object({ Subscribers: z.array(z.string()) }).parse(answer.json).Subscribers).toEqual(
      shown,
    );
    return shown;
  };
  // Dave and Carol are new (in the order asked); Alice and Bob stay where they were.
  expect(await update([dave, bob, carol, alice])).toEqual([alice, bob, dave, carol]);
  expect(counted(projectId)).toMatchObject({
    [alice]: plus(alice, 1),
    [bob]: plus(bob, 1),
    [carol]: plus(carol, 1),
    [dave]: plus(dave, 1),
  });
  // Removing an assignee keeps the subscribers; adding one back adds nothing.
  expect(await update([carol])).toEqual([alice, bob, dave, carol]);
  // Bob's count goes back to what it was (his row goes when that is none).
  expect(counted(projectId)[carol]).toBe(plus(carol, 1));
  expect(counted(projectId)[bob] ?? 0).toBe(plus(bob, 0));
  expect(await update([carol, bob])).toEqual([alice, bob, dave, carol]);
  const answer = await call(`${t.service.altUrl}/task/updateTask/${taskId}`, {
    method: 'PUT',
    body: { projectId, taskUsers: [bob, carol] },
  });
  // Carol and Bob kept their places (Carol first); Bob re-assigned just now by Alice.
  const users = z
    .object({ TaskUsers: z.array(z.object({ _id: z.string(), CreatedBy: z.string() })) })
    .parse(answer.json).TaskUsers;
  expect(users.map((u) => [u._id, u.CreatedBy])).toEqual([
    [carol, alice],
    [bob, alice],
  ]);
});
