/**
 * A task's subscribers (the task row's `subscriber_ids`, src/service/migrations.ts entry 4):
 * the creator and the assignees at create, the creator first; an update that adds assignees
 * appends the new ones after them, once each, and keeps everyone already there in place,
 * also when an assignee is removed. Reads and the update's answer show the same list.
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

it('appends new assignees to the subscribers, once each, in order', async () => {
  const [alice, bob, carol, dave] = t.seed.users.map((u) => u.id);
  const projectId = t.seed.projects[1].projectId;
  const created = await call(`${t.service.baseUrl}/task`, {
    method: 'POST',
    body: { projectId, name: 'Followed', taskUsers: [bob] },
  });
  expect(created.status, created.text).toBe(201);
  const { taskId, subscribers } = z
    .object({ taskId: z.string(), subscribers: z.array(z.string()) })
    .parse(created.json);
  expect(subscribers).toEqual([alice, bob]);

  const update = async (taskUsers: string[]) => {
    const answer = await call(`${t.service.altUrl}/task/updateTask/${taskId}`, {
      method: 'PUT',
      body: { projectId, taskUsers },
    });
    expect(answer.status, answer.text).toBe(200);
    const read = await call(`${t.service.baseUrl}/task/${taskId}`);
    const shown = z.object({ subscribers: z.array(z.string()) }).parse(read.json).subscribers;
    expect(z.object({ Subscribers: z.array(z.string()) }).parse(answer.json).Subscribers).toEqual(
      shown,
    );
    return shown;
  };
  // Dave and Carol are new (in the order asked); Alice and Bob stay where they were.
  expect(await update([dave, bob, carol, alice])).toEqual([alice, bob, dave, carol]);
  // Removing an assignee keeps the subscribers; adding one back adds nothing.
  expect(await update([carol])).toEqual([alice, bob, dave, carol]);
  expect(await update([carol, bob])).toEqual([alice, bob, dave, carol]);
});
