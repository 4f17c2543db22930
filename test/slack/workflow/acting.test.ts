/**
 * Who a workflow step acts as, through signed `function_executed` events against the
 * embedded service: the person named in the step ("Created by", "Author") with their own key
 * writes as themselves (the service records them; no attribution line), anyone else goes
 * through the workspace key signed with their Slack name — unless the workspace's policy
 * says members need their own key, when the step fails saying so and changes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../support/harness.js';
import { runWorkflowStep } from '../../support/workflow-events.js';
import { serviceView } from '../tasks/helpers.js';

let h: Harness;
let website: string;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  const bob = seedUser('Bob');
  await h.worklink.store.personalKeys.save({
    teamId: h.teamId,
    slackUserId: h.users.bob.id,
    serviceUserId: bob.id,
    apiKey: bob.apiKey!,
    connectedAt: Date.now(),
  });
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

/** The task's comments as the service records them (author and text). */
async function comments(taskId: string) {
  const { updated } = await serviceView(h, taskId);
  return (updated.Comments ?? [])
    .filter((c) => c.Type === 1)
    .map((c) => ({ by: c.CreatedBy, text: c.Comment }));
}

describe('a step acts as the person it names', () => {
  it('with their own key: the service records them as creator and commenter', async () => {
    const bob = seedUser('Bob');
    const created = await runWorkflowStep(h, 'create_task', {
      project: website,
      title: 'Made by Bob himself',
      run_by: h.users.bob.id,
    });
    expect(created.ended.state).toBe('completed');
    const taskId = String(created.ended.outputs?.task_id);
    expect((await serviceView(h, taskId)).updated.CreatedBy).toBe(bob.id);

    // With the embedded service and no WORK_TASK_URL, the link is its signed task page.
    const link = String(created.ended.outputs?.task_url);
    expect(link).toMatch(/\/pages\/task\/[0-9a-f]{24}\?sig=/);
    const comment = await runWorkflowStep(h, 'add_comment', {
      task: link,
      text: 'Written with my own key',
      author: h.users.bob.id,
    });
    expect(comment.ended.state).toBe('completed');
    expect(await comments(taskId)).toContainEqual({ by: bob.id, text: 'Written with my own key' });
  });

  it('without one: through the workspace key, signed with their Slack name', async () => {
    const alice = seedUser('Alice');
    const created = await runWorkflowStep(h, 'create_task', {
      project: website,
      title: 'Made for Carol',
      run_by: h.users.carol.id,
    });
    const taskId = String(created.ended.outputs?.task_id);
    // The workspace key's owner is Alice: the service says so; Worklink remembers Carol.
    expect((await serviceView(h, taskId)).updated.CreatedBy).toBe(alice.id);
    await runWorkflowStep(h, 'add_comment', {
      task: taskId,
      text: 'Carol’s note',
      author: h.users.carol.id,
    });
    expect(await comments(taskId)).toContainEqual({
      by: alice.id,
      text: 'Carol’s note\n\n— Carol Chen (via Slack)',
    });
  });

  it('fails, changing nothing, when the policy wants members to use their own key', async () => {
    await h.worklink.store.teamSettings.set(h.teamId, { members: 'read-only' }, h.users.alice.id);
    try {
      const before = (await h.work.listTasks({ projectId: website })).length;
      const refused = await runWorkflowStep(h, 'create_task', {
        project: website,
        title: 'Not allowed',
        run_by: h.users.carol.id,
      });
      expect(refused.ended.state).toBe('failed');
      expect(refused.ended.error).toContain('needs your own API key');
      expect((await h.work.listTasks({ projectId: website })).length).toBe(before);
      // Bob's own key is still his to use.
      const allowed = await runWorkflowStep(h, 'create_task', {
        project: website,
        title: 'Bob may',
        run_by: h.users.bob.id,
      });
      expect(allowed.ended.state).toBe('completed');
    } finally {
      await h.worklink.store.teamSettings.set(
        h.teamId,
        { members: 'attributed' },
        h.users.alice.id,
      );
    }
  });
});
