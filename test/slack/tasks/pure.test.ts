/**
 * The pure parts of the task features: the form (what a submission asks for, edit diffs,
 * metadata limits, service errors → fields), the card and list builders, file sizes, typed
 * ids, handles, list arguments, bounded concurrency and message text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TaskCardData } from '../../../src/slack/context/ports.js';
import { withinBudget } from '../../../src/slack/context/submit-budget.js';
import { plainText } from '../../../src/slack/format/text.js';
import { taskIdProblem } from '../../../src/slack/parse/service-id.js';
import { usersForHandle } from '../../../src/slack/people/service-users.js';
import { mapLimit } from '../../../src/slack/shared/concurrency.js';
import { taskCard } from '../../../src/slack/tasks/card/task-card.js';
import { formatFileSize, toTaskFile } from '../../../src/slack/tasks/files.js';
import {
  blockForServiceError,
  checkTaskForm,
  editFingerprints,
} from '../../../src/slack/tasks/form/read.js';
import {
  type TaskFormValues,
  taskBlockId,
} from '../../../src/slack/tasks/form/task-form-fields.js';
import {
  encodeTaskFormMeta,
  readTaskFormMeta,
  type TaskFormMeta,
} from '../../../src/slack/tasks/form/task-form-meta.js';
import { taskFormModal } from '../../../src/slack/tasks/form/task-form-modal.js';
import { parseListArgs } from '../../../src/slack/tasks/list/load.js';
import { taskListMessage } from '../../../src/slack/tasks/list/task-list-page.js';
import { firstDoneStatus, type ProjectInfo } from '../../../src/slack/tasks/project-info.js';
import { descriptionFromMessage, nameFromMessage } from '../../../src/slack/tasks/shortcuts.js';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { fileSize } from '../../../src/workapi/contract.js';

const PID = '0123456789abcdef01234567';
const project: ProjectInfo = {
  id: PID,
  name: 'Website',
  priorityEnabled: true,
  defaultPriority: 3,
  estimateEnabled: true,
  milestoneEnabled: false,
  groupsEnabled: true,
  statuses: [
    { _id: 'st_todo', Name: 'To Do', Type: 1, Index: 0, Default: true },
    { _id: 'st_done_b', Name: 'Shipped', Type: 3, Index: 3 },
    { _id: 'st_done_a', Name: 'Done', Type: 3, Index: 2 },
  ],
  groups: [{ groupId: 'gr_design', groupName: 'Design' }],
};

function formMeta(mode: 'create' | 'edit', values: TaskFormValues = {}): TaskFormMeta {
  const view = taskFormModal({
    meta: { mode, taskId: mode === 'edit' ? 'task000000000001' : undefined },
    values,
    projects: [{ id: PID, name: 'Website' }],
    project,
    users: [{ id: 'u1', name: 'Ann', email: 'ann@example.com' }],
  });
  const meta = readTaskFormMeta(view.private_metadata, mode);
  return mode === 'edit' ? { ...meta, orig: editFingerprints(values) } : meta;
}

describe('task form', () => {
  it('shows only the fields the project has on, with ids carrying the project', () => {
    const meta = formMeta('create');
    expect(meta.inputs).toEqual([
      'project',
      'name',
      'description',
      'assignees',
      'dueDate',
      'priority',
      'groupId',
      'statusId',
      'estimate',
      'files',
    ]);
    expect(taskBlockId('groupId', PID)).toBe('task_group.01234567');
    expect(taskBlockId('name', PID)).toBe('task_name');
  });

  it('builds the create body from the shown fields', () => {
    const check = checkTaskForm(
      {
        projectId: PID,
        name: '  Ship it ',
        description: 'Line\r\n',
        assignees: ['u1', 'u1'],
        dueDate: '2026-12-01',
        priority: '0',
        groupId: 'gr_design',
        statusId: 'st_todo',
        estimate: '007',
        milestone: '3', // not shown for this project: ignored
        fileIds: ['F1'],
      },
      formMeta('create'),
    );
    expect(check).toEqual({
      ok: true,
      body: {
        projectId: PID,
        name: 'Ship it',
        description: 'Line',
        taskUsers: ['u1'],
        dueDate: '2026-12-01',
        priority: 0,
        groupId: 'gr_design',
        statusId: 'st_todo',
        estimateTime: 7,
      },
      fileIds: ['F1'],
      changed: [],
    });
  });

  it('sends an edit’s changed fields only, and nothing when nothing changed', () => {
    const initial: TaskFormValues = {
      projectId: PID,
      name: 'Old',
      description: '',
      assignees: ['u1'],
      dueDate: '2026-01-01',
      priority: '2',
      groupId: 'gr_design',
      estimate: '4',
    };
    const meta = formMeta('edit', initial);
    expect(checkTaskForm(initial, meta)).toMatchObject({
      ok: true,
      body: { projectId: PID },
      changed: [],
    });
    expect(
      checkTaskForm({ ...initial, assignees: [], statusId: 'st_done_a', estimate: '04' }, meta),
    ).toMatchObject({
      ok: true,
      body: { projectId: PID, taskUsers: [], statusId: 'st_done_a' },
      changed: ['assignees', 'status'],
    });
    expect(checkTaskForm({ ...initial, groupId: undefined, estimate: '' }, meta)).toEqual({
      ok: false,
      errors: {
        [taskBlockId('groupId', PID)]:
          'The service cannot remove a task’s group; choose another one or keep it.',
        [taskBlockId('estimate', PID)]:
          'The service cannot remove a task’s estimate; choose another one or keep it.',
      },
    });
  });

  it('leaves a description too long for Slack alone in an edit', () => {
    const initial: TaskFormValues = { projectId: PID, name: 'Long', description: 'x'.repeat(5000) };
    const view = taskFormModal({
      meta: { mode: 'edit', taskId: 'task000000000001' },
      values: initial,
      projects: [],
      project,
      users: [],
    });
    expect(JSON.stringify(view.blocks)).not.toContain('task_description_input');
    const meta = {
      ...readTaskFormMeta(view.private_metadata, 'edit'),
      orig: editFingerprints(initial),
    };
    expect(checkTaskForm({ projectId: PID, name: 'Longer' }, meta)).toMatchObject({
      ok: true,
      body: { projectId: PID, name: 'Longer' },
      changed: ['name'],
    });
  });

  it('maps the service’s "field: problem" to that field’s block, else to the name', () => {
    const meta = formMeta('create');
    expect(blockForServiceError('estimateTime: must not be negative', meta)).toBe(
      taskBlockId('estimate', PID),
    );
    expect(blockForServiceError('files.0.href: must be a URL', meta)).toBe('task_files');
    expect(blockForServiceError('milestoneId: the milestone feature is off', meta)).toBe(
      'task_name',
    );
    expect(blockForServiceError('something odd happened', meta)).toBe('task_name');
  });

  it('keeps private_metadata within 3000 characters, dropping attached files first', () => {
    const files = Array.from({ length: 60 }, (_, i) => ({
      fileType: 'png',
      href: `https://files.slack.test/${'x'.repeat(60)}/${i}.png`,
      name: `${i}.png`,
      size: '1.00 KB',
    }));
    const json = encodeTaskFormMeta({ mode: 'create', channelId: 'C1', files });
    expect(json.length).toBeLessThanOrEqual(3000);
    const back = readTaskFormMeta(json, 'create');
    expect(back.channelId).toBe('C1');
    expect(back.files?.length).toBeGreaterThan(0);
    expect(back.files?.length).toBeLessThan(60);
    expect(readTaskFormMeta('not json', 'edit')).toEqual({
      mode: 'edit',
      channelId: undefined,
      responseUrl: undefined,
      taskId: undefined,
      projectId: undefined,
      inputs: undefined,
      files: undefined,
      orig: undefined,
    });
  });
});

describe('cards and lists', () => {
  const data: TaskCardData = {
    taskId: 'task000000000001',
    name: 'R&D <beta>',
    number: 7,
    projectName: 'Website',
    status: { name: 'Done', done: true },
    assignees: [{ name: 'Ann', slackUserId: 'U1' }, { name: 'Bo <b>' }],
    dueDate: '2026-11-25T00:00:00.000Z',
  };

  it('escapes service text, shows ✅ and hides Mark complete when done', () => {
    const text = JSON.stringify(taskCard(data));
    expect(text).toContain('✅ *R&amp;D &lt;beta&gt;* #7');
    expect(text).toContain('<@U1>, Bo &lt;b&gt;');
    expect(text).toContain('Wed, Nov 25, 2026');
    expect(text).not.toContain(ACTION.taskComplete);
    const open = JSON.stringify(taskCard({ ...data, status: { name: 'To Do', done: false } }));
    expect(open).toContain(ACTION.taskComplete);
  });

  it('pages 20 rows at most, within Slack’s 50 blocks, with distinct button ids', () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({
      ...data,
      taskId: `t${i}`.padEnd(16, '0'),
    }));
    const { blocks } = taskListMessage({
      projectId: PID,
      projectName: 'Website',
      filter: 'all',
      page: 1,
      total: 65,
      rows,
    });
    expect(blocks.length).toBeLessThanOrEqual(50);
    const nav = blocks.find((b) => b.type === 'actions') as { elements: { action_id: string }[] };
    const ids = nav.elements.map((e) => e.action_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([`${ACTION.taskListPage}:prev`, `${ACTION.taskListPage}:next`]);
  });

  it('says when there is nothing to list', () => {
    expect(
      taskListMessage({
        projectId: PID,
        projectName: 'W',
        filter: 'done',
        page: 0,
        total: 0,
        rows: [],
      }).text,
    ).toBe('No done tasks in *W*.');
  });
});

describe('helpers', () => {
  it('formats file sizes in the spec’s form', () => {
    expect(formatFileSize(0)).toBe('0.00 KB');
    expect(formatFileSize(12_643)).toBe('12.35 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1.00 MB');
    expect(formatFileSize(5 * 1024 ** 3)).toBe('5.00 GB');
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 52 }), (n) => fileSize.safeParse(formatFileSize(n)).success),
    );
    expect(toTaskFile({ id: 'F1', name: 'x' })).toBeUndefined();
  });

  it('refuses what can never be a task id', () => {
    expect(taskIdProblem('')).toMatch(/^Name the task by its id/);
    expect(taskIdProblem('abc')).toMatch(/too short/);
    expect(taskIdProblem('a b c d e f g')).toMatch(/is not a task id/);
    // As Slack sends a typed placeholder, and an id with markup in it.
    expect(taskIdProblem('&lt;taskId&gt;')).toMatch(/^Replace `&lt;taskId&gt;` with a task’s id/);
    expect(taskIdProblem('abc&lt;!channel&gt;')).toBe(
      '`abc&lt;!channel&gt;` is not a task id: ids are letters and digits, like the 24-character ids shown on task cards.',
    );
    expect(taskIdProblem('0123456789')).toBeUndefined();
  });

  it('matches handles by e-mail, local part, full name, then first name', () => {
    const users = [
      { id: '1', name: 'Bob Brown', email: 'bob@example.com' },
      { id: '2', name: 'Bob Black', email: 'robert@example.com' },
      { id: '3', name: 'Carol Chen', email: 'cc@example.com' },
    ];
    expect(usersForHandle(users, 'BOB@example.com').map((u) => u.id)).toEqual(['1']);
    expect(usersForHandle(users, 'robert').map((u) => u.id)).toEqual(['2']);
    expect(usersForHandle(users, 'bob').map((u) => u.id)).toEqual(['1']);
    expect(usersForHandle(users, 'bobblack').map((u) => u.id)).toEqual(['2']);
    expect(usersForHandle(users, 'carol').map((u) => u.id)).toEqual(['3']);
    expect(usersForHandle([...users, { id: '4', name: 'Carol King' }], 'carol')).toHaveLength(2);
    expect(usersForHandle(users, 'zed')).toEqual([]);
  });

  it('reads list arguments in either order', () => {
    expect(parseListArgs([])).toEqual({ ok: true, filter: 'open' });
    expect(parseListArgs([PID, 'DONE'])).toEqual({ ok: true, filter: 'done', project: PID });
    expect(parseListArgs(['open', 'done'])).toMatchObject({ ok: false });
    expect(parseListArgs(['all', 'Customer', 'onboarding'])).toEqual({
      ok: true,
      filter: 'all',
      project: 'Customer onboarding',
    });
  });

  it('finds the first done status by Index', () => {
    expect(firstDoneStatus(project.statuses)?._id).toBe('st_done_a');
  });

  it('maps with bounded concurrency, keeping order', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([...Array(30).keys()], 8, async (n) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return n * 2;
    });
    expect(out).toEqual([...Array(30).keys()].map((n) => n * 2));
    expect(most).toBe(8);
  });

  it('tells in-time work from late work', async () => {
    expect(await withinBudget(Promise.resolve(1), 1_000)).toEqual({ inTime: true, value: 1 });
    const never = new Promise<number>(() => undefined);
    expect(await withinBudget(never, 5)).toEqual({ inTime: false });
  });

  it('turns messages into names and descriptions', () => {
    expect(plainText('Hi <@U123|ann> see <https://x.test/a|the doc> &amp; <#C1|general>')).toBe(
      'Hi @ann see the doc & #general',
    );
    expect(nameFromMessage('\n\n  First line  \nsecond')).toBe('First line');
    expect(nameFromMessage('', 'shot.png')).toBe('shot.png');
    const description = descriptionFromMessage('x'.repeat(5000), 'https://slack.test/p1');
    expect(description.length).toBe(3000);
    expect(description.endsWith('\n\nhttps://slack.test/p1')).toBe(true);
  });
});
