/**
 * The Workflow Builder steps against the hosted service as it really answers (the
 * hosted-style fake, over real HTTP, the app configured from the environment): each step
 * completes with the right outputs, and a service that fails makes the step fail with a
 * sentence naming the cause — nothing created, nothing changed, `complete`/`fail` once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';
import { runWorkflowStep } from '../support/workflow-events.js';

let h: HostedHarness;
let website: string;

beforeAll(async () => {
  h = await startHostedHarness({ connect: true });
  website = h.hosted.projects.website;
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

describe('Workflow steps against the hosted-style service', () => {
  it('creates, comments on, completes and finds a task', async () => {
    const created = await runWorkflowStep(h, 'create_task', {
      project: website,
      title: 'Send the welcome pack',
      assignees: [h.users.bob.id],
      due_date: '2026-12-24',
      priority: 'Urgent',
      run_by: h.users.alice.id,
    });
    expect(created.ended.state).toBe('completed');
    const taskId = String(created.ended.outputs?.task_id);
    const task = h.hosted.tasks.get(taskId);
    expect(task).toMatchObject({
      name: 'Send the welcome pack',
      projectId: website,
      priority: 1,
      assignees: [h.hosted.users.bob],
    });
    expect(task?.dueDate?.slice(0, 10)).toBe('2026-12-24');
    expect(created.ended.outputs?.task_name).toBe('Send the welcome pack');

    const comment = await runWorkflowStep(h, 'add_comment', {
      task: taskId,
      text: 'Packed and ready',
      author: h.users.carol.id,
    });
    expect(comment.ended).toMatchObject({ state: 'completed', outputs: { task_id: taskId } });
    const posted = h.hosted.comments.filter((c) => c.taskId === taskId);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.content).toBe('Packed and ready\n\n— Carol Chen (via Slack)');

    const done = await runWorkflowStep(h, 'complete_task', { task: taskId });
    expect(done.ended).toMatchObject({ state: 'completed', outputs: { status: 'Done' } });
    expect(h.hosted.tasks.get(taskId)?.done).toBe(true);
    const reopened = await runWorkflowStep(h, 'reopen_task', { task: taskId });
    expect(reopened.ended.state).toBe('completed');
    expect(reopened.ended.outputs?.status).not.toBe('Done');
    expect(h.hosted.tasks.get(taskId)?.done).toBe(false);

    const found = await runWorkflowStep(h, 'find_task', {
      words: 'welcome pack',
      project: website,
    });
    expect(found.ended.outputs).toMatchObject({
      found: true,
      task_id: taskId,
      task_name: 'Send the welcome pack',
      assignees: [h.users.bob.id],
    });
  });

  it('fails with the cause when the service fails, and creates nothing', async () => {
    const before = h.hosted.tasks.size;
    h.hosted.proxyFailures(20, 503);
    const run = await runWorkflowStep(h, 'create_task', { project: website, title: 'Not today' });
    h.hosted.proxyFailures(0);
    expect(run.ended.state).toBe('failed');
    expect(run.ended.error).toMatch(/^Could not create the task: /);
    expect(run.ended.error).toMatch(/service/);
    expect(h.hosted.tasks.size).toBe(before);
    expect(run.endCalls().map((c) => c.method)).toEqual(['functions.completeError']);
  });

  it('fails a comment on a task the service does not have, posting nothing', async () => {
    const before = h.hosted.comments.length;
    const run = await runWorkflowStep(h, 'add_comment', {
      task: 'abcdefabcdefabcdefabcdef',
      text: 'Hello?',
      author: h.users.bob.id,
    });
    expect(run.ended.state).toBe('failed');
    expect(run.ended.error).toContain('there is no task abcdefabcdefabcdefabcdef');
    expect(h.hosted.comments.length).toBe(before);
  });
});
