/**
 * Worklink's Workflow Builder steps through signed `function_executed` events (Slack's
 * documented payload, built from manifest.yml) against the embedded service: each step ends
 * with functions.completeSuccess and the right outputs, or functions.completeError with a
 * sentence a workflow's owner can act on and nothing changed — exactly once per execution,
 * also when Slack delivers the event again.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Harness, startHarness } from '../../support/harness.js';
import { deliverStep, endOf, runWorkflowStep, STEPS } from '../../support/workflow-events.js';

const TASK_URL = 'https://tasks.example.com/project/{projectId}/task/{taskId}';
let h: Harness;
let website: string;
let onboarding: string;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;
const taskCount = async (projectId: string) => (await h.work.listTasks({ projectId })).length;

beforeAll(async () => {
  h = await startHarness({
    connect: true,
    configure: (c) => ({ ...c, links: { taskUrl: TASK_URL } }),
  });
  website = h.seed.projects[0]!.projectId;
  onboarding = h.seed.projects[1]!.projectId;
  // Somebody in Slack whom the service does not know.
  h.fake.users.set('U_ZED', {
    id: 'U_ZED',
    realName: 'Zed Zimmer',
    email: 'zed@elsewhere.example',
  });
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

describe('Create a task', () => {
  it('creates the task with every field and outputs its id, name, number and reference', async () => {
    await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
    const run = await runWorkflowStep(h, 'create_task', {
      project: 'Website relaunch',
      title: 'Order the launch cake',
      description: 'Chocolate, for 20 people',
      assignees: [h.users.bob.id, h.users.carol.id],
      due_date: '2026-12-01',
      priority: 'High',
      group: 'launch',
      run_by: h.users.alice.id,
    });
    expect(run.res.status).toBe(200);
    expect(run.ended.state).toBe('completed');
    const outputs = run.ended.outputs ?? {};
    expect(outputs.task_id).toMatch(/^[0-9a-f]{24}$/);
    expect(outputs.task_name).toBe('Order the launch cake');
    const task = await h.work.getTask(String(outputs.task_id));
    expect(task.taskName).toBe('Order the launch cake');
    expect(task.description).toBe('Chocolate, for 20 people');
    expect(task.projectId).toBe(website);
    expect(task.dueDate?.slice(0, 10)).toBe('2026-12-01');
    expect(task.priority).toBe('2');
    expect(task.group).toBe('Launch');
    expect((task.taskUsers ?? []).map((u) => u.taskUserId).sort()).toEqual(
      [seedUser('Bob').id, seedUser('Carol').id].sort(),
    );
    expect(outputs.task_number).toMatch(/^#\d+$/);
    expect(outputs.task_reference).toBe(`${outputs.task_number} in Website relaunch`);
    expect(outputs.task_url).toBe(
      `https://tasks.example.com/project/${website}/task/${outputs.task_id}`,
    );
    // The other steps take the reference and the link.
    const byRef = await runWorkflowStep(h, 'complete_task', { task: outputs.task_reference });
    expect(byRef.ended.outputs?.task_id).toBe(outputs.task_id);
    const byLink = await runWorkflowStep(h, 'reopen_task', { task: outputs.task_url });
    expect(byLink.ended.outputs?.task_id).toBe(outputs.task_id);
    // Its assignees hear of it as from any other create (the DM pipeline).
    await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_BOB');
    expect(run.endCalls().map((c) => c.method)).toEqual(['functions.completeSuccess']);
  });

  it('fails, naming the person, when an assignee is not a user of the service', async () => {
    const before = await taskCount(website);
    const run = await runWorkflowStep(h, 'create_task', {
      project: website,
      title: 'Nobody can do this',
      assignees: [h.users.bob.id, 'U_ZED'],
    });
    expect(run.ended.state).toBe('failed');
    expect(run.ended.error).toBe(
      `<@U_ZED> (zed@elsewhere.example) is not a user of ${h.seed.workspaceName}, so nothing was created. Add them to the work-management service with their Slack e-mail, or have a Slack admin link them with “/work link @person <their service e-mail>”.`,
    );
    expect(await taskCount(website)).toBe(before);
    expect(run.endCalls().map((c) => c.method)).toEqual(['functions.completeError']);
  });

  it.each([
    [{ title: '' }, 'The task has no title'],
    [{ project: '  ' }, 'No project was given'],
    [{ project: 'no such project', title: 'A task' }, 'No project named “no such project”'],
    [{ priority: 'whenever' }, '“whenever” is not a priority: use No Priority, Urgent, High'],
    [{ due_date: 'someday soon' }, '"someday soon" is not a date I understand'],
    [{ assignees: ['bob@example.com'] }, '“bob@example.com” in “Assignees” is not a Slack user'],
    [{ group: 'Nope' }, 'Website relaunch has no single group called “Nope”'],
  ] as const)('fails on bad inputs and creates nothing: %o', async (bad, said) => {
    const before = await taskCount(website);
    const run = await runWorkflowStep(h, 'create_task', {
      project: website,
      title: 'A task',
      ...bad,
    });
    expect(run.ended.state).toBe('failed');
    expect(run.ended.error).toContain(said);
    expect(run.ended.error).not.toMatch(/[*`]|\/work/);
    expect(await taskCount(website)).toBe(before);
  });
});

describe('Add a comment, Complete and Reopen a task', () => {
  it('comments as its author, then completes and reopens the task named by #N in project', async () => {
    await h.worklink.store.knownProjects.remember(h.teamId, onboarding, 'Customer onboarding');
    const ref = '#2 in customer onboarding';
    const comment = await runWorkflowStep(h, 'add_comment', {
      task: ref,
      text: 'Data import script is ready',
      author: h.users.bob.id,
    });
    expect(comment.ended.state).toBe('completed');
    const taskId = String(comment.ended.outputs?.task_id);
    expect(taskId).toMatch(/^[0-9a-f]{24}$/);
    const task = await h.work.getTask(taskId);
    expect(task.taskName).toBe('Import customer data');

    const done = await runWorkflowStep(h, 'complete_task', {
      task: taskId,
      run_by: h.users.bob.id,
    });
    expect(done.ended).toMatchObject({
      state: 'completed',
      outputs: { status: 'Done', task_id: taskId },
    });
    expect((await h.work.getTask(taskId)).status).toBe(true);
    // Already done is not a failure: the status is the answer.
    const again = await runWorkflowStep(h, 'complete_task', { task: taskId });
    expect(again.ended).toMatchObject({ state: 'completed', outputs: { status: 'Done' } });

    const reopened = await runWorkflowStep(h, 'reopen_task', { task: ref });
    expect(reopened.ended.state).toBe('completed');
    expect(reopened.ended.outputs?.status).not.toBe('Done');
    expect((await h.work.getTask(taskId)).status).toBe(false);
  });

  it('fails with a sentence for a task it cannot name, and changes nothing', async () => {
    const cases = [
      [{ task: '#2', text: 'x', author: h.users.bob.id }, 'does not say which project'],
      [
        { task: '#999 in customer onboarding', text: 'x', author: h.users.bob.id },
        'There is no task #999 in Customer onboarding.',
      ],
      [
        { task: 'https://tasks.example.com/t/none', text: 'x', author: h.users.bob.id },
        'That link does not name a task id',
      ],
      [{ task: 'abcdefabcdefabcdefabcdef', text: 'x', author: h.users.bob.id }, 'there is no task'],
      [
        { task: '#1 in customer onboarding', text: '', author: h.users.bob.id },
        'The comment is empty',
      ],
      [{ task: '#1 in customer onboarding', text: 'x' }, 'No author was given'],
    ] as const;
    for (const [inputs, said] of cases) {
      const run = await runWorkflowStep(h, 'add_comment', inputs);
      expect(run.ended.state, said).toBe('failed');
      expect(run.ended.error).toContain(said);
    }
    expect(h.fake.callsOf('functions.completeSuccess')).toHaveLength(0);
  });
});

describe('Find a task', () => {
  it('outputs the best match with its status and assignees as Slack users', async () => {
    const run = await runWorkflowStep(h, 'find_task', { words: 'sitemap', project: website });
    expect(run.ended.state).toBe('completed');
    expect(run.ended.outputs).toMatchObject({
      found: true,
      task_name: 'Draft the sitemap',
      status: expect.any(String),
    });
    const task = await h.work.getTask(String(run.ended.outputs?.task_id));
    expect(task.taskName).toBe('Draft the sitemap');
    const assignees = run.ended.outputs?.assignees;
    expect(Array.isArray(assignees)).toBe(true);
    expect((assignees as string[]).every((id) => /^U_/.test(id))).toBe(true);
    expect((assignees as string[]).length).toBe((task.taskUsers ?? []).length);
  });

  it('completes with empty outputs when nothing matches (not a failure)', async () => {
    const run = await runWorkflowStep(h, 'find_task', {
      words: 'zebra crossing',
      project: website,
    });
    expect(run.ended).toMatchObject({ state: 'completed', outputs: { found: false } });
    expect(Object.keys(run.ended.outputs ?? {})).toEqual(['found']);
  });
});

describe('once per execution', () => {
  it('ends an execution once when Slack retries the event (same event id, x-slack-retry-num)', async () => {
    const first = await deliverStep(h, 'create_task', { project: website, title: 'Retried once' });
    const retry = await deliverStep(
      h,
      'create_task',
      { project: website, title: 'Retried once' },
      { executionId: first.executionId, eventId: first.eventId, retryNum: 1 },
    );
    expect(retry.res.status).toBe(200);
    await endOf(h, first.executionId);
    // A redelivery with a new event id (e.g. replayed after a restart) is the same execution.
    const again = await deliverStep(
      h,
      'create_task',
      { project: website, title: 'Retried once' },
      { executionId: first.executionId, retryNum: 2 },
    );
    expect(again.res.status).toBe(200);
    // Wait for the app to have taken the redelivery in before counting.
    await h.waitFor(() =>
      h.logs.some((l) => l.includes(`${first.executionId} was delivered again`)),
    );
    const ends = h.fake.calls.filter(
      (c) =>
        c.method.startsWith('functions.') && c.body.function_execution_id === first.executionId,
    );
    expect(ends.map((c) => c.method)).toEqual(['functions.completeSuccess']);
    const made = (await h.work.listTasks({ projectId: website })).filter(
      (t) => t.taskName === 'Retried once',
    );
    expect(made).toHaveLength(1);
  });

  it('fails a step of a team that is not connected, with what to do', async () => {
    const run = await runWorkflowStep(
      h,
      'create_task',
      { project: website, title: 'x' },
      { teamId: 'T_OTHER' },
    );
    expect(run.ended.state).toBe('failed');
    expect(run.ended.error).toContain('not connected');
  });
});

it('declares the steps in an org-ready manifest.yml, with the inputs and outputs the code reads', async () => {
  const manifest = parse(readFileSync(new URL('../../../manifest.yml', import.meta.url), 'utf8'));
  // Workflow Builder lists custom steps of org-ready apps only.
  expect(manifest.settings.org_deploy_enabled).toBe(true);
  const { STEP_INPUTS, STEP_OUTPUTS } = await import('../../../src/slack/workflow/steps.js');
  expect(STEPS.map((s) => s.callbackId).sort()).toEqual(Object.keys(STEP_INPUTS).sort());
  for (const s of STEPS) {
    const id = s.callbackId as keyof typeof STEP_INPUTS;
    expect(s.inputs.map((p) => p.name)).toEqual([...STEP_INPUTS[id]]);
    expect(s.outputs.map((p) => p.name)).toEqual([...STEP_OUTPUTS[id]]);
  }
});
