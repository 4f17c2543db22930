/**
 * The create/edit task modal end to end: open (loading → form), project change refreshes
 * the fields, disabled features hide theirs, input problems under the fields, a full create
 * with every field and files, the service's 400 verbatim, the slow path (modal answered,
 * result reported after, input DMed back on failure), and the edit form's partial update.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import { STATUS_TYPE } from '../../../src/workapi/contract.js';
import { type Harness, startHarness, waitFor } from '../../support/harness.js';
import { heldCalls } from '../../support/held-calls.js';
import type { SlackResponse } from '../../support/slack-requests.js';
import {
  answeredView,
  errorsOf,
  type FieldValue,
  findTask,
  inputWith,
  linkChannel,
  serviceView,
  shown,
  stateFor,
  statusesOf,
  type ViewJson,
  viewOf,
} from './helpers.js';

let h: Harness;
let website: string;
let onboarding: string;
const seedUser = (name: string) => h.seed.users.find((u) => u.name.startsWith(name))!;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  onboarding = h.seed.projects[1]!.projectId;
  h.fake.files.set('F_SPEC', {
    id: 'F_SPEC',
    name: 'spec.pdf',
    title: 'Spec',
    filetype: 'pdf',
    mimetype: 'application/pdf',
    size: 12_643,
    url_private: 'https://files.slack.test/files-pri/T_TEST-F_SPEC/spec.pdf',
    permalink: 'https://fake.slack.test/files/U_ALICE/F_SPEC/spec.pdf',
  });
});
afterAll(() => h?.stop());
beforeEach(async () => {
  h.fake.reset();
  await linkChannel(h, 0);
});

/** `/work <command>` → the form the loading view turned into. */
async function openForm(command: string, userId = h.users.alice.id) {
  const res = await h.slack.slashCommand(command, { userId });
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  const id = (await answeredView(h, open)).id;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  return { res, open, view: { ...viewOf(update), id } as ViewJson };
}

function submit(view: ViewJson, values: Record<string, FieldValue>, userId = h.users.alice.id) {
  return h.slack.viewSubmission(
    {
      callbackId: view.callback_id!,
      id: view.id,
      privateMetadata: view.private_metadata,
      blocks: view.blocks,
      values: stateFor(view, values),
    },
    { userId },
  );
}

const optionValues = (view: ViewJson, actionId: string) =>
  inputWith(view, actionId)?.element?.options?.map((o) => o.text.text);

describe('create form', () => {
  it('opens with the channel’s project and that project’s fields', async () => {
    const { open, view } = await openForm('new');
    expect(viewOf(open).callback_id).toBe(VIEW.loading);
    expect(view.callback_id).toBe(VIEW.taskCreate);
    const project = inputWith(view, ACTION.taskFormProject);
    expect(project?.dispatch_action).toBe(true);
    expect(project?.element?.initial_option?.value).toBe(website);
    expect(inputWith(view, 'task_priority_input')?.element?.initial_option?.text.text).toBe(
      'Medium',
    );
    expect(optionValues(view, 'task_group_input')).toEqual(['Design', 'Build', 'Launch']);
    expect(optionValues(view, 'task_status_input')).toEqual(['To Do', 'In Progress', 'Done']);
    expect(inputWith(view, 'task_status_input')?.element?.initial_option?.text.text).toBe('To Do');
    expect(inputWith(view, 'task_estimate_input')?.element?.type).toBe('number_input');
    expect(inputWith(view, 'task_milestone_input')?.element?.type).toBe('number_input');
    expect(inputWith(view, 'task_files_input')?.element?.type).toBe('file_input');
    expect(inputWith(view, 'task_due_input')?.element?.type).toBe('datepicker');
    // People are found by typing (assignees-at-scale.test.ts): no list of 100 in the view.
    expect(inputWith(view, 'task_assignees_input')?.element?.type).toBe('multi_external_select');
    expect(JSON.parse(view.private_metadata!)).toMatchObject({
      mode: 'create',
      channelId: 'C_GENERAL',
      projectId: website,
    });
  });

  it('refreshes the fields when the project changes, keeping what was typed', async () => {
    const { view } = await openForm('new');
    h.fake.reset();
    const state = stateFor(view, { task_name_input: 'Keep me', task_estimate_input: '3' });
    await h.slack.blockAction(
      { actionId: ACTION.taskFormProject, selectedOption: { value: onboarding } },
      {
        view: {
          id: view.id,
          hash: 'h-current',
          callback_id: view.callback_id,
          private_metadata: view.private_metadata,
          blocks: view.blocks,
          state: { values: state },
        },
      },
    );
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === view.id);
    expect(update.body.hash).toBe('h-current');
    const next = viewOf(update);
    expect(inputWith(next, ACTION.taskFormProject)?.element?.initial_option?.value).toBe(
      onboarding,
    );
    expect(inputWith(next, 'task_name_input')?.element?.initial_value).toBe('Keep me');
    // Customer onboarding has estimates and milestones off: their fields are gone.
    expect(inputWith(next, 'task_estimate_input')).toBeUndefined();
    expect(inputWith(next, 'task_milestone_input')).toBeUndefined();
    expect(optionValues(next, 'task_group_input')).toEqual(['Backlog', 'This week']);
    expect(inputWith(next, 'task_priority_input')?.element?.initial_option?.text.text).toBe(
      'No Priority',
    );
    expect(JSON.parse(next.private_metadata!).projectId).toBe(onboarding);
  });

  it('answers input problems under their fields and creates nothing', async () => {
    const { view } = await openForm('new');
    const before = (await h.work.listTasks({ projectId: website })).length;
    const res = await submit(view, {
      task_name_input: '   ',
      task_estimate_input: '-3',
      task_milestone_input: '1.5',
    });
    expect(res.status).toBe(200);
    expect(res.json?.response_action).toBe('errors');
    const errors = res.json?.errors as Record<string, string>;
    const blockOf = (action: string) => inputWith(view, action)!.block_id!;
    expect(errors).toEqual({
      [blockOf('task_name_input')]: 'Give the task a name.',
      [blockOf('task_estimate_input')]:
        'The estimate cannot be negative. Enter whole hours, like 4.',
      [blockOf('task_milestone_input')]:
        '“1.5” is not a whole number. Enter a whole number, like 2.',
    });
    expect((await h.work.listTasks({ projectId: website })).length).toBe(before);
  });

  it('creates the task with every field and file, and confirms where the command was typed', async () => {
    const { res: command, view } = await openForm('new');
    const statuses = await statusesOf(h, website);
    const inProgress = statuses.find((s) => s.Type === STATUS_TYPE.inProgress)!;
    const build = h.seed.projects[0]!.groups.find((g) => g.groupName === 'Build')!;
    const bob = seedUser('Bob');
    const carol = seedUser('Carol');
    const res = await submit(view, {
      task_name_input: 'Launch checklist',
      task_description_input: 'Everything for launch day.\nWith two lines.',
      task_assignees_input: [bob.id, carol.id],
      task_due_input: '2026-12-01',
      task_priority_input: '1',
      task_group_input: build.groupId,
      task_status_input: inProgress._id,
      task_estimate_input: '5',
      task_milestone_input: '2',
      task_files_input: { files: [{ id: 'F_SPEC' }] },
    });
    // Saved: the modal closes (no success screen).
    expect(res.status).toBe(200);
    expect(res.json?.response_action).toBeUndefined();

    const task = await findTask(h, website, 'Launch checklist');
    expect(task).toMatchObject({
      description: 'Everything for launch day.\nWith two lines.',
      groupId: build.groupId,
      group: 'Build',
      priority: '1',
      estimateTime: 5,
      milestoneId: 2,
      status: false,
      taskUsers: [{ taskUserId: bob.id }, { taskUserId: carol.id }],
    });
    expect(task?.dueDate?.slice(0, 10)).toBe('2026-12-01');
    const { updated } = await serviceView(h, task!.taskId);
    expect(updated.StatusId).toBe(inProgress._id);
    expect(updated.Files).toEqual([
      {
        file_type: 'pdf',
        href: 'https://files.slack.test/files-pri/T_TEST-F_SPEC/spec.pdf',
        name: 'spec.pdf',
        size: '12.35 KB',
        uploadFileType: 1,
      },
    ]);
    expect(h.fake.callsOf('files.info').map((c) => c.body.file)).toEqual(['F_SPEC']);

    // The confirmation is the live card, only to its author (their DM with Worklink).
    const card = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === h.users.alice.id && shown(c.body).includes('Launch checklist'),
    );
    expect(shown(card.body.blocks)).toMatch(/<@U_ALICE> created \*#\d+ Launch checklist\*/);
    expect(shown(card.body.blocks)).toContain('In Progress');
    expect(shown(card.body.blocks)).toContain(task!.taskId);
    expect(h.repliesTo(command)).toEqual([]);
  });

  it('shows the service’s 400 verbatim under the field it names', async () => {
    const { view } = await openForm('new');
    const expected = await h.work
      .createTask({ projectId: website, name: 'x', statusId: 'no-such-status-id' })
      .then(
        () => 'created',
        (e: Error) => e.message,
      );
    expect(expected).toBe('statusId: no status with this id in this project');
    const res = await submit(view, {
      task_name_input: 'Bad status',
      task_status_input: 'no-such-status-id',
    });
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: { [inputWith(view, 'task_status_input')!.block_id!]: expected },
    });
    expect(await findTask(h, website, 'Bad status')).toBeUndefined();
  });

  it('says when the fields are still loading for a newly chosen project', async () => {
    const { view } = await openForm('new');
    const res = await submit(view, {
      task_name_input: 'Too quick',
      [ACTION.taskFormProject]: onboarding,
    });
    expect(errorsOf(res).task_project).toBe(
      'The fields of this project are still loading; wait a moment, then submit again.',
    );
  });

  it('offers a project id field when no project is known, and creates with it', async () => {
    await h.worklink.store.channelProjects.unlink(h.teamId, 'C_GENERAL');
    const known = await h.worklink.store.knownProjects.list(h.teamId);
    for (const p of known) await h.worklink.store.knownProjects.forget(h.teamId, p.projectId);
    try {
      const { view } = await openForm('new Typed project');
      const field = inputWith(view, ACTION.taskFormProject);
      expect(field?.element?.type).toBe('plain_text_input');
      expect(field?.hint?.text).toContain('Paste a project id');
      expect(inputWith(view, 'task_status_input')).toBeUndefined();
      const short = await submit(view, { [ACTION.taskFormProject]: 'abc' });
      expect(errorsOf(short).task_project).toContain('too short to be a project id');
      const res = await submit(view, { [ACTION.taskFormProject]: onboarding });
      expect(res.json?.response_action).toBeUndefined();
      expect(await findTask(h, onboarding, 'Typed project')).toBeDefined();
    } finally {
      for (const p of known)
        await h.worklink.store.knownProjects.remember(h.teamId, p.projectId, p.projectName);
    }
  });
});

describe('slow service', () => {
  async function slowSubmit(values: Record<string, FieldValue>) {
    const { res: command, view } = await openForm('new');
    // The save waits on files.info until the modal is answered: past the submit budget,
    // shortened here from Slack's 3 s so that the test does not sit through it.
    const filesInfo = heldCalls();
    h.fake.script('files.info', filesInfo.script);
    h.worklink.deps.config.waits = { submitBudgetMs: 200 };
    let res: SlackResponse;
    try {
      res = await submit(view, { ...values, task_files_input: { files: [{ id: 'F_SPEC' }] } });
      h.fake.mark('submission answered');
    } finally {
      filesInfo.release();
      h.worklink.deps.config.waits = undefined;
      // The script is read when the call arrives; later calls answer at once again.
      h.fake.script('files.info', undefined);
    }
    return { command, view, res };
  }

  it('answers the modal in time, then reports the created task', async () => {
    const { view, res } = await slowSubmit({ task_name_input: 'Slow but sure' });
    expect(res.json?.response_action).toBe('update');
    expect(shown(res.json?.view)).toContain('Creating the task…');
    const done = await h.fake.waitForCall(
      'views.update',
      (c) => c.body.view_id === view.id && shown(c.body.view).includes('Created task'),
    );
    expect(h.fake.timeline.indexOf('submission answered')).toBeLessThan(done.seq);
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === h.users.alice.id && shown(c.body).includes('Slow but sure'),
    );
    expect(await findTask(h, website, 'Slow but sure')).toBeDefined();
  });

  it('sends the entered values by DM when the save fails after the modal was answered', async () => {
    const { view } = await slowSubmit({
      task_name_input: 'Lost and found',
      task_description_input: 'Precious words',
      task_status_input: 'no-such-status-id',
    });
    const dm = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === h.users.alice.id && shown(c.body).includes('Lost and found'),
    );
    const text = String(dm.body.text);
    expect(text).toContain(
      'Your task was not created. statusId: no status with this id in this project',
    );
    expect(text).toContain('*Name:* Lost and found');
    expect(text).toContain('*Description:* Precious words');
    const notice = await h.fake.waitForCall(
      'views.update',
      (c) => c.body.view_id === view.id && shown(c.body.view).includes('statusId: no status'),
    );
    expect(shown(notice.body.view)).toContain('sent to you in a direct message');
    expect(await findTask(h, website, 'Lost and found')).toBeUndefined();
  });
});

describe('edit form', () => {
  async function sitemap() {
    // Task #1 of the seed ("Draft the sitemap"; renamed by the first test).
    return (await h.work.listTasks({ projectId: website }))[0]!.taskId;
  }

  it('is prefilled from the task and sends only the changed fields', async () => {
    const taskId = await sitemap();
    const { view } = await openForm(`edit ${taskId}`);
    expect(view.callback_id).toBe(VIEW.taskEdit);
    expect(inputWith(view, 'task_name_input')?.element?.initial_value).toBe('Draft the sitemap');
    expect(inputWith(view, 'task_assignees_input')?.element?.initial_options).toEqual([
      expect.objectContaining({ value: seedUser('Bob').id }),
    ]);
    expect(inputWith(view, 'task_due_input')?.element?.initial_date).toBe('2026-02-15');
    expect(inputWith(view, 'task_priority_input')?.element?.initial_option?.text.text).toBe('High');
    expect(inputWith(view, 'task_group_input')?.element?.initial_option?.text.text).toBe('Design');
    expect(inputWith(view, 'task_estimate_input')?.element?.initial_value).toBe('6');
    // get task says "not done" but not which of To Do / In Progress: no guess is shown.
    expect(inputWith(view, 'task_status_input')?.element?.initial_option).toBeUndefined();
    expect(inputWith(view, 'task_files_input')).toBeUndefined();
    expect(shown(view.blocks)).toContain('Project: *Website relaunch*');

    const client = h.worklink.deps.workClients.for(
      (await h.worklink.store.connections.get(h.teamId))!,
    );
    const spy = vi.spyOn(client, 'updateTask');
    try {
      const res = await submit(view, {
        task_name_input: 'Draft the sitemap v2',
        task_due_input: '2026-03-01',
      });
      // The modal closes; the author is told in one sentence.
      expect(res.json?.response_action).toBeUndefined();
      await h.fake.waitForResponse(
        (r) =>
          // (2026-03-01 may be past by now: the past-date note then follows.)
          (r.body as { text?: string }).text?.startsWith(
            'Saved *Draft the sitemap v2*: changed name and due date.',
          ) === true,
      );
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy.mock.calls[0]).toEqual([
        taskId,
        { projectId: website, name: 'Draft the sitemap v2', dueDate: '2026-03-01' },
      ]);
    } finally {
      spy.mockRestore();
    }
    const task = await h.work.getTask(taskId);
    expect(task).toMatchObject({
      taskName: 'Draft the sitemap v2',
      priority: '2',
      estimateTime: 6,
    });
    expect(task.dueDate?.slice(0, 10)).toBe('2026-03-01');
    expect(task.taskUsers).toEqual([{ taskUserId: seedUser('Bob').id }]);
  });

  it('tells a person the edit assigned, and the creator when the edit completed the task', async () => {
    const taskId = (await h.work.listTasks({ projectId: website }))[1]!.taskId;
    await h.work.updateTask(taskId, { projectId: website, taskUsers: [seedUser('Bob').id] });
    const done = (await statusesOf(h, website)).find((s) => s.Type === STATUS_TYPE.done)!;
    // Alice made it from Slack (as the create paths record).
    await h.worklink.store.taskCreators.note(h.teamId, taskId, { slackUserId: 'U_ALICE' });
    const { view } = await openForm(`edit ${taskId}`, 'U_CAROL');
    await submit(
      view,
      {
        task_assignees_input: [seedUser('Bob').id, seedUser('Dan').id, seedUser('Carol').id],
        task_status_input: done._id,
      },
      'U_CAROL',
    );
    const toDm = (user: string, prefix: string) =>
      h.fake
        .callsOf('chat.postMessage')
        .filter(
          (c) =>
            c.body.channel === user &&
            JSON.stringify(c.body.metadata).includes(`"task_id":"${prefix}`),
        );
    await waitFor(() => toDm('U_DAN', taskId).length === 1);
    await waitFor(() => toDm('U_ALICE', `completed:${taskId}`).length === 1);
    expect(toDm('U_DAN', taskId)[0]!.body.text).toContain('<@U_CAROL> assigned you');
    // Nobody is told of their own edit; Bob was assigned already.
    await h.worklink.parts.activity.idle();
    expect(toDm('U_CAROL', '')).toHaveLength(0);
    expect(toDm('U_BOB', taskId)).toHaveLength(0);
  });

  it('saves nothing when nothing changed, and refuses to clear a due date', async () => {
    const taskId = await sitemap();
    const { view } = await openForm(`edit ${taskId}`);
    const same = await submit(view, {});
    expect(shown(same.json?.view)).toContain('Nothing was changed, so nothing was saved.');
    const cleared = await submit(view, { task_due_input: null });
    expect(cleared.json?.errors).toEqual({
      [inputWith(view, 'task_due_input')!.block_id!]:
        'The service cannot remove a task’s due date; choose another one or keep it.',
    });
  });

  it('says so in the modal when the task does not exist', async () => {
    const res = await h.slack.slashCommand('edit ffffffffffffffffffffffff');
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const openedId = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === openedId);
    expect(shown(viewOf(update))).toContain(
      'Could not load the task: there is no task `ffffffffffffffffffffffff` in the connected workspace.',
    );
  });
});
