/**
 * The contract, end to end: WorkClient against the embedded service over real HTTP (port 0,
 * temp SQLite file). Every response the service sends is checked with the STRICT schemas, and
 * every rule of DESIGN.md ("Decisions where the spec is silent") has a test. Requests the
 * client would refuse to send are made raw, to test the service's own checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { insertProject } from '../../src/service/projects.js';
import type { SeedResult } from '../../src/service/seed.js';
import { seedDemoWorkspace } from '../../src/service/seed.js';
import {
  ACTIVITY_TYPE,
  describeIssue,
  type OperationName,
  operations,
  strictResponses,
} from '../../src/workapi/contract.js';
import {
  failure,
  RecordingAgent,
  raw,
  startTestService,
  type TestService,
} from '../service/support.js';
import { SureWorkClient } from '../support/sure-work.js';

type StrictOf<N extends OperationName> = z.infer<
  (typeof strictResponses)[(typeof operations)[N]['response']]
>;

let t: TestService;
let seed: SeedResult;
let other: SeedResult;
let agent: RecordingAgent;
let client: SureWorkClient;
const covered = new Set<OperationName>();

beforeAll(async () => {
  t = await startTestService();
  seed = t.seed;
  other = seedDemoWorkspace(t.service.db);
  agent = new RecordingAgent();
  client = clientFor(seed.apiKey);
});

afterAll(async () => {
  await agent?.close();
  await t?.stop();
});

function clientFor(apiKey: string): SureWorkClient {
  return new SureWorkClient({
    baseUrl: t.service.baseUrl,
    altUrl: t.service.altUrl,
    apiKey,
    dispatcher: agent,
    retry: { attempts: 1 },
  });
}

/** Awaits a client call, then checks the raw answer with the strict schema and returns it. */
async function strict<N extends OperationName>(name: N, call: Promise<unknown>) {
  await call;
  const answer = agent.last();
  expect(answer.status, `${name} status`).toBe(operations[name].status);
  const schema = strictResponses[operations[name].response];
  const parsed = schema.safeParse(JSON.parse(answer.text));
  if (!parsed.success) {
    throw new Error(`${name}: ${describeIssue(parsed.error)} in ${answer.text.slice(0, 2000)}`);
  }
  covered.add(name);
  return parsed.data as StrictOf<N>;
}

const user = (name: string) => {
  const u = seed.users.find((x) => x.name.startsWith(name));
  if (!u) throw new Error(`no demo user ${name}`);
  return u.id;
};
const website = () => seed.projects[0];
const group = (name: string) => {
  const g = website().groups.find((x) => x.groupName === name);
  if (!g) throw new Error(`no group ${name}`);
  return g.groupId;
};
const base = (path: string) => `${t.service.baseUrl}${path}`;
const alt = (path: string) => `${t.service.altUrl}${path}`;

async function statusIds(projectId: string) {
  const details = await strict('getProjectDetails', client.getProjectDetails(projectId));
  const byType = (type: number) => details.Status?.find((s) => s.Type === type)?._id as string;
  return { todo: byType(1), doing: byType(2), done: byType(3), details };
}

describe('every operation through WorkClient, strict responses', () => {
  it('serves all 13 operations with exactly the contract shapes', async () => {
    const v = await strict('verify', client.verify());
    expect(v).toEqual({
      workspaceId: seed.workspaceId,
      workspaceName: seed.workspaceName,
      createdBy: user('Alice'),
    });

    const users = await strict('listUsers', client.listUsers());
    expect(Array.isArray(users)).toBe(true);
    expect(users.map((u) => u.email).sort()).toEqual(
      ['alice', 'bob', 'carol', 'dan', 'erin'].map((n) => `${n}@example.com`),
    );
    expect(users.find((u) => u.isOwner)?.email).toBe('alice@example.com');

    const customers = await strict('listCustomers', client.listCustomers());
    expect(customers.map((c) => c.companyName)).toEqual(['Acme Corp', 'Globex']);
    expect(customers[0].clients?.length).toBeGreaterThan(0);

    const project = await strict(
      'createProject',
      client.createProject({
        projectName: 'Contract project',
        customerId: seed.customers[0].customerId,
        startDate: '2026-03-01',
        dueDate: '2026-11-25',
      }),
    );
    expect(project).toMatchObject({
      projectName: 'Contract project',
      workspaceId: seed.workspaceId,
      ownerId: user('Alice'),
      description: '',
      customerId: seed.customers[0].customerId,
      startDate: '2026-03-01T00:00:00.000Z',
      dueDate: '2026-11-25T00:00:00.000Z',
      favoriteUsers: [],
      projectUsers: [user('Alice')],
    });
    expect(project.projectId).toMatch(/^[0-9a-f]{24}$/);

    const got = await strict('getProject', client.getProject(project.projectId));
    expect(got).toEqual(project);

    const updated = await strict(
      'updateProject',
      client.updateProject(project.projectId, { description: 'Now described' }),
    );
    expect(updated).toEqual({ ...project, description: 'Now described' });

    const details = await strict('getProjectDetails', client.getProjectDetails(project.projectId));
    expect(details).toMatchObject({
      _id: project.projectId,
      Name: 'Contract project',
      CompanyId: seed.workspaceId,
      Description: 'Now described',
      CreatedBy: user('Alice'),
      StartDate: '2026-03-01T00:00:00.000Z',
      CustomerId: seed.customers[0].customerId,
      Priority: { Enabled: true, Default: 0 },
      MultiAsignee: true,
      StatusEnable: true,
      LabelsEnabled: true,
      taskFilter: {},
      Resources: [],
      deployProject: { id: '', AccountId: '', Name: '', ScmRepoId: '' },
      ScmRepository: null,
    });
    expect(details.Status?.map((s) => [s.Name, s.Type, s.Index, s.Default])).toEqual([
      ['To Do', 1, 0, true],
      ['In Progress', 2, 1, false],
      ['Done', 3, 2, false],
    ]);

    const groups = await strict('listProjectGroups', client.listProjectGroups(website().projectId));
    expect(groups).toEqual(website().groups.map((g) => ({ ...g, projectId: website().projectId })));

    const task = await strict(
      'createTask',
      client.createTask({
        projectId: website().projectId,
        name: 'Write the contract test',
        description: 'All 13 operations',
        priority: 2,
        dueDate: '2026-11-25',
        groupId: group('Build'),
        taskUsers: [user('Bob'), user('Carol')],
        files: [
          { fileType: 'pdf', href: 'https://example.com/a.pdf', name: 'a.pdf', size: '12.5 KB' },
        ],
        estimateTime: 3,
        milestoneId: 7,
      }),
    );
    expect(task).toEqual({
      taskId: task.taskId,
      taskName: 'Write the contract test',
      projectId: website().projectId,
      groupId: group('Build'),
      group: 'Build',
      description: 'All 13 operations',
      status: false,
      subscribers: [user('Alice'), user('Bob'), user('Carol')],
      dueDate: '2026-11-25T00:00:00.000Z',
      priority: '2',
      estimateTime: 3,
      milestoneId: 7,
      taskUsers: [{ taskUserId: user('Bob') }, { taskUserId: user('Carol') }],
      taskNumber: task.taskNumber,
    });
    expect(task.taskNumber).toBeGreaterThan(0);

    expect(await strict('getTask', client.getTask(task.taskId))).toEqual(task);

    const list = await strict('listTasks', client.listTasks({ projectId: website().projectId }));
    expect(list.at(-1)).toEqual({
      taskId: task.taskId,
      taskName: 'Write the contract test',
      taskNumber: task.taskNumber,
    });

    const comment = await strict(
      'postComment',
      client.postComment(task.taskId, { content: 'Looks good' }),
    );
    expect(comment).toEqual({ commentId: comment.commentId, content: 'Looks good' });

    const changed = await strict(
      'updateTask',
      client.updateTask(task.taskId, { projectId: website().projectId, name: 'Renamed' }),
    );
    expect(changed).toMatchObject({
      _id: task.taskId,
      Name: 'Renamed',
      ProjectId: website().projectId,
      GroupId: group('Build'),
      Desc: 'All 13 operations',
      Status: false,
      Priority: 2,
      DueDate: '2026-11-25T00:00:00.000Z',
      ParentTaskId: null,
      Labels: [],
      CreatedBy: user('Alice'),
      UpdatedBy: user('Alice'),
      Files: [
        {
          file_type: 'pdf',
          href: 'https://example.com/a.pdf',
          name: 'a.pdf',
          size: '12.5 KB',
          uploadFileType: 1,
        },
      ],
    });
    expect(changed.TaskUsers?.map((u) => u._id)).toEqual([user('Bob'), user('Carol')]);
    expect(changed.Comments?.map((c) => [c.Type, c.Comment, c.CreatedBy])).toEqual([
      [ACTIVITY_TYPE.comment, 'Looks good', user('Alice')],
    ]);

    expect([...covered].sort()).toEqual(Object.keys(operations).sort());
  });

  it('serves list responses as JSON arrays', async () => {
    for (const path of ['/company/users', '/company/customers']) {
      const a = await raw(base(path), { apiKey: seed.apiKey });
      expect(Array.isArray(a.json), path).toBe(true);
    }
  });
});

describe('round trips', () => {
  it('create → get → update → list keeps every field consistent', async () => {
    const projectId = website().projectId;
    const created = await strict(
      'createTask',
      client.createTask({ projectId, name: 'Round trip', taskUsers: [user('Dan')] }),
    );
    const fetched = await strict('getTask', client.getTask(created.taskId));
    expect(fetched).toEqual(created);
    const updated = await strict(
      'updateTask',
      client.updateTask(created.taskId, { projectId, name: 'Round trip 2', dueDate: '2026-12-01' }),
    );
    expect(updated.Name).toBe('Round trip 2');
    const after = await strict('getTask', client.getTask(created.taskId));
    expect(after).toEqual({
      ...created,
      taskName: 'Round trip 2',
      dueDate: '2026-12-01T00:00:00.000Z',
    });
    const list = await strict('listTasks', client.listTasks({ projectId }));
    expect(list).toContainEqual({
      taskId: created.taskId,
      taskName: 'Round trip 2',
      taskNumber: created.taskNumber,
    });
  });

  it('project create → get → update → details', async () => {
    const p = await strict('createProject', client.createProject({ projectName: 'Trip' }));
    expect(p).toMatchObject({ customerId: null, startDate: null, dueDate: null, description: '' });
    const u = await strict(
      'updateProject',
      client.updateProject(p.projectId, {
        projectName: 'Trip 2',
        customerId: seed.customers[1].customerId,
        startDate: '2026-01-01',
        dueDate: '2026-02-01',
        description: 'd',
        priority: false,
        defaultPriority: 'Low',
        estimate: false,
        milestone: false,
      }),
    );
    expect(u).toMatchObject({
      projectName: 'Trip 2',
      customerId: seed.customers[1].customerId,
      startDate: '2026-01-01T00:00:00.000Z',
      dueDate: '2026-02-01T00:00:00.000Z',
      description: 'd',
    });
    expect(await strict('getProject', client.getProject(p.projectId))).toEqual(u);
    const d = await strict('getProjectDetails', client.getProjectDetails(p.projectId));
    expect(d).toMatchObject({
      Name: 'Trip 2',
      IsEstimate: false,
      IsMilestone: false,
      Priority: { Enabled: false, Default: 4 },
    });
  });
});

describe('authentication and workspaces', () => {
  it('answers 401 {error} for a missing or unknown key', async () => {
    for (const apiKey of [undefined, 'wk_not-a-key']) {
      for (const url of [
        base('/verify'),
        base(`/task/${'a'.repeat(24)}`),
        alt(`/project/${'b'.repeat(24)}/getCurrentProjectDetails`),
      ]) {
        const a = await raw(url, { apiKey });
        expect(a.status).toBe(401);
        expect(strictResponses.ErrorBody.parse(a.json).error).toMatch(/^apiKey: /);
      }
    }
    const e = await failure(clientFor('wk_unknown').verify());
    expect([e.status, e.kind]).toEqual([401, 'auth']);
  });

  it("answers 404 for another workspace's tasks and projects, as for missing ones", async () => {
    const mine = await client.createTask({ projectId: website().projectId, name: 'Private' });
    const theirs = clientFor(other.apiKey);
    const projectId = website().projectId;
    const calls: (() => Promise<unknown>)[] = [
      () => theirs.getTask(mine.taskId),
      () => theirs.updateTask(mine.taskId, { projectId, name: 'x' }),
      () => theirs.postComment(mine.taskId, { content: 'x' }),
      () => theirs.getProject(projectId),
      () => theirs.updateProject(projectId, { projectName: 'x' }),
      () => theirs.getProjectDetails(projectId),
      () => theirs.listProjectGroups(projectId),
      () => theirs.listTasks({ projectId }),
    ];
    for (const call of calls) {
      const e = await failure(call());
      expect([e.status, e.kind]).toEqual([404, 'not_found']);
    }
    // In a body the project is a field: 400 naming it.
    const e = await failure(theirs.createTask({ projectId, name: 'x' }));
    expect([e.status, e.message]).toEqual([
      400,
      'projectId: no project with this id in this workspace',
    ]);
    // Their users cannot be our assignees.
    const e2 = await failure(client.createTask({ projectId, taskUsers: [other.users[1].id] }));
    expect(e2.status).toBe(400);
    expect(e2.message).toMatch(/^taskUsers: /);
    expect((await client.getTask(mine.taskId)).taskName).toBe('Private');
  });
});

describe('bad input answers 400 {error: "field: problem"}', () => {
  const expect400 = async (a: Promise<{ status: number; json: unknown }>, pattern: RegExp) => {
    const answer = await a;
    expect(answer.status).toBe(400);
    const body = strictResponses.ErrorBody.parse(answer.json);
    expect(body.error).toMatch(pattern);
  };

  it('refuses path ids shorter than 10 characters', async () => {
    const k = { apiKey: seed.apiKey };
    await expect400(raw(base('/task/abc'), k), /^taskId: /);
    await expect400(raw(base('/project/abc'), k), /^projectId: /);
    await expect400(raw(base('/project/abc/group'), k), /^projectId: /);
    await expect400(raw(alt('/project/abc/getCurrentProjectDetails'), k), /^projectId: /);
    await expect400(
      raw(alt('/task/updateTask/abc'), { ...k, method: 'PUT', body: { projectId: 'p' } }),
      /^taskId: /,
    );
    await expect400(raw(base('/task/abc/comments'), { ...k, body: { content: 'x' } }), /^taskId: /);
  });

  it('refuses impossible dates and a dueDate before the startDate', async () => {
    const k = { apiKey: seed.apiKey };
    const projectId = website().projectId;
    await expect400(
      raw(base('/task'), { ...k, body: { projectId, dueDate: '2026-02-30' } }),
      /^dueDate: /,
    );
    await expect400(
      raw(base('/task'), { ...k, body: { projectId, dueDate: '25/11/2026' } }),
      /^dueDate: /,
    );
    await expect400(
      raw(base('/project'), { ...k, body: { projectName: 'x', startDate: '2026-13-01' } }),
      /^startDate: /,
    );
    await expect400(
      raw(base('/project'), {
        ...k,
        body: { projectName: 'x', startDate: '2026-05-02', dueDate: '2026-05-01' },
      }),
      /^dueDate: must not be before startDate/,
    );
    // Against the stored dates too: the project runs 2026-01-05 .. 2026-06-30.
    await expect400(
      raw(base(`/project/${projectId}`), { ...k, method: 'PUT', body: { dueDate: '2026-01-01' } }),
      /^dueDate: must not be before startDate/,
    );
    await expect400(
      raw(base(`/project/${projectId}`), {
        ...k,
        method: 'PUT',
        body: { startDate: '2026-07-01' },
      }),
      /^startDate: must not be after dueDate/,
    );
    const e = await failure(client.updateProject(projectId, { dueDate: '2025-12-31' }));
    expect([e.status, e.kind]).toEqual([400, 'invalid']);
  });

  it('refuses malformed JSON, wrong content types, unknown fields and enum values', async () => {
    const k = { apiKey: seed.apiKey };
    const projectId = website().projectId;
    await expect400(
      raw(base('/task'), { ...k, body: '{"projectId": ' }),
      /^body: is not valid JSON/,
    );
    await expect400(raw(base('/task'), { ...k, body: '' }), /^body: /);
    await expect400(
      raw(base('/task'), { ...k, body: JSON.stringify({ projectId }), contentType: 'text/plain' }),
      /^content-type: /,
    );
    await expect400(
      raw(base('/task'), {
        ...k,
        body: 'projectId=x',
        contentType: 'application/x-www-form-urlencoded',
      }),
      /^content-type: /,
    );
    await expect400(
      raw(base('/task'), { ...k, body: { projectId, colour: 'red' } }),
      /^colour: is not a known field/,
    );
    await expect400(raw(base('/task'), { ...k, body: { projectId, priority: 5 } }), /^priority: /);
    await expect400(raw(base('/task'), { ...k, body: [] }), /^body: must be a JSON object/);
    await expect400(
      raw(base(`/project/${projectId}`), {
        ...k,
        method: 'PUT',
        body: { defaultPriority: 'Extreme' },
      }),
      /^defaultPriority: must be one of/,
    );
    await expect400(raw(base('/task?projectId=x&complete=maybe'), k), /^complete: /);
  });

  it('refuses unknown groupId, statusId and taskUsers with a sentence naming the field', async () => {
    const projectId = website().projectId;
    const onboarding = seed.projects[1];
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ groupId: 'f'.repeat(24) }, /^groupId: no group with this id in this project$/],
      // A group of another project of the same workspace is not this project's group.
      [{ groupId: onboarding.groups[0].groupId }, /^groupId: /],
      [{ statusId: 'f'.repeat(24) }, /^statusId: no status with this id in this project$/],
      [
        { taskUsers: [user('Bob'), 'f'.repeat(24)] },
        /^taskUsers: no user f{24} in this workspace$/,
      ],
    ];
    for (const [fields, pattern] of cases) {
      const e = await failure(client.createTask({ projectId, ...fields }));
      expect(e.status).toBe(400);
      expect(e.message).toMatch(pattern);
    }
  });

  it('refuses task file links that are not web addresses', async () => {
    const k = { apiKey: seed.apiKey };
    const projectId = website().projectId;
    const file = { fileType: 'pdf', name: 'a.pdf', size: '1 KB' };
    for (const href of ['javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd']) {
      await expect400(
        raw(base('/task'), { ...k, body: { projectId, files: [{ ...file, href }] } }),
        /^files\.0\.href: must be an http or https URL$/,
      );
    }
  });

  it('accepts the name as name or taskName, and refuses both when they differ', async () => {
    const k = { apiKey: seed.apiKey };
    const projectId = website().projectId;
    const asTaskName = await raw(base('/task'), { ...k, body: { projectId, taskName: 'Hosted' } });
    expect(asTaskName.status).toBe(201);
    expect((asTaskName.json as { taskName: string }).taskName).toBe('Hosted');
    const differ = await raw(base('/task'), {
      ...k,
      body: { projectId, name: 'One', taskName: 'Two' },
    });
    expect([differ.status, (differ.json as { error: string }).error]).toEqual([
      400,
      'taskName: must be the same as name when both are given',
    ]);
  });

  it('answers 413 {error} for a body over 1 MiB', async () => {
    const answer = await raw(base('/task'), {
      apiKey: seed.apiKey,
      body: { projectId: website().projectId, description: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(answer.status).toBe(413);
    expect(strictResponses.ErrorBody.parse(answer.json).error).toMatch(/^body: /);
  });

  it('answers 404 {error} for unknown ids and unknown routes', async () => {
    const k = { apiKey: seed.apiKey };
    const a = await raw(base(`/task/${'0'.repeat(24)}`), k);
    expect([a.status, (a.json as { error: string }).error]).toEqual([
      404,
      `taskId: no task ${'0'.repeat(24)}`,
    ]);
    const b = await raw(base('/no/such/thing'), k);
    expect(b.status).toBe(404);
    strictResponses.ErrorBody.parse(b.json);
  });
});

describe('task rules', () => {
  it('counts TaskNumber per project from 1', async () => {
    const p1 = await client.createProject({ projectName: 'Numbers A' });
    const p2 = await client.createProject({ projectName: 'Numbers B' });
    const numbers: number[] = [];
    for (const projectId of [p1.projectId, p1.projectId, p2.projectId, p1.projectId]) {
      const task = await client.createTask({ projectId, name: 'n' });
      const u = await strict('updateTask', client.updateTask(task.taskId, { projectId }));
      numbers.push(u.TaskNumber as number);
    }
    expect(numbers).toEqual([1, 2, 1, 3]);
  });

  it('applies defaultPriority only when the task gives none and priority is enabled', async () => {
    const p = await client.createProject({ projectName: 'Defaults' });
    await client.updateProject(p.projectId, { defaultPriority: 'High' });
    const implicit = await strict('createTask', client.createTask({ projectId: p.projectId }));
    expect(implicit.priority).toBe('2');
    const explicit = await strict(
      'createTask',
      client.createTask({ projectId: p.projectId, priority: 4 }),
    );
    expect(explicit.priority).toBe('4');
    await client.updateProject(p.projectId, { priority: false });
    const off = await strict('createTask', client.createTask({ projectId: p.projectId }));
    expect(off.priority).toBe('0');
  });

  it('refuses a field whose project feature is off, naming the feature', async () => {
    const p = await client.createProject({ projectName: 'Features' });
    await client.updateProject(p.projectId, { priority: false, estimate: false, milestone: false });
    const cases: [Record<string, unknown>, string][] = [
      [{ priority: 1 }, 'priority: the priority feature is off for this project'],
      [{ estimateTime: 2 }, 'estimateTime: the estimate feature is off for this project'],
      [{ milestoneId: 3 }, 'milestoneId: the milestone feature is off for this project'],
    ];
    const task = await client.createTask({ projectId: p.projectId, name: 'plain' });
    for (const [fields, message] of cases) {
      const onCreate = await failure(client.createTask({ projectId: p.projectId, ...fields }));
      expect([onCreate.status, onCreate.message]).toEqual([400, message]);
      const onUpdate = await failure(
        client.updateTask(task.taskId, { projectId: p.projectId, ...fields }),
      );
      expect([onUpdate.status, onUpdate.message]).toEqual([400, message]);
    }
    // Groups: no update field turns them off, so this project is set up through the domain.
    const noGroups = insertProject(
      t.service.db,
      { workspaceId: seed.workspaceId, userId: user('Alice') },
      { name: 'No groups', features: { groups: false }, groups: ['Hidden'] },
    );
    const [hidden] = await client.listProjectGroups(noGroups);
    const e = await failure(client.createTask({ projectId: noGroups, groupId: hidden.groupId }));
    expect([e.status, e.message]).toEqual([
      400,
      'groupId: the groups feature is off for this project',
    ]);
  });

  it('gives a new task the Default status; status is true exactly for Type 3', async () => {
    const projectId = website().projectId;
    const { todo, doing, done } = await statusIds(projectId);
    const task = await client.createTask({ projectId, name: 'Status' });
    const u1 = await strict('updateTask', client.updateTask(task.taskId, { projectId }));
    expect([u1.StatusId, u1.Status]).toEqual([todo, false]);
    const u2 = await strict(
      'updateTask',
      client.updateTask(task.taskId, { projectId, statusId: doing }),
    );
    expect([u2.StatusId, u2.Status]).toEqual([doing, false]);
    const u3 = await strict(
      'updateTask',
      client.updateTask(task.taskId, { projectId, statusId: done }),
    );
    expect([u3.StatusId, u3.Status]).toEqual([done, true]);
    expect((await strict('getTask', client.getTask(task.taskId))).status).toBe(true);
    const born = await strict('createTask', client.createTask({ projectId, statusId: done }));
    expect(born.status).toBe(true);
  });

  it('filters by completion and lists every match ordered by TaskNumber', async () => {
    const p = await client.createProject({ projectName: 'Completion' });
    const { done } = await statusIds(p.projectId);
    const names = ['one', 'two', 'three', 'four', 'five'];
    const ids: string[] = [];
    for (const name of names)
      ids.push((await client.createTask({ projectId: p.projectId, name })).taskId);
    for (const i of [1, 3]) {
      await client.updateTask(ids[i], { projectId: p.projectId, statusId: done });
    }
    const all = await strict('listTasks', client.listTasks({ projectId: p.projectId }));
    expect(all.map((x) => x.taskName)).toEqual(names);
    const complete = await strict(
      'listTasks',
      client.listTasks({ projectId: p.projectId, complete: true }),
    );
    expect(complete.map((x) => x.taskId)).toEqual([ids[1], ids[3]]);
    const incomplete = await strict(
      'listTasks',
      client.listTasks({ projectId: p.projectId, complete: false }),
    );
    expect(incomplete.map((x) => x.taskId)).toEqual([ids[0], ids[2], ids[4]]);
  });

  it('pages list tasks with limit and offset, saying the whole length in X-Total-Count', async () => {
    const p = await client.createProject({ projectName: 'Paging' });
    const { done } = await statusIds(p.projectId);
    const ids: string[] = [];
    for (let i = 1; i <= 7; i++) {
      ids.push((await client.createTask({ projectId: p.projectId, name: `t${i}` })).taskId);
    }
    await client.updateTask(ids[2], { projectId: p.projectId, statusId: done });
    const page = await fetch(base(`/task?projectId=${p.projectId}&limit=2&offset=3`), {
      headers: { apiKey: seed.apiKey },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBe('7');
    expect(((await page.json()) as { taskName: string }[]).map((x) => x.taskName)).toEqual([
      't4',
      't5',
    ]);
    // Through the client, with the completion filter; past the end is an empty page.
    const open = await client.listTasksPage(
      { projectId: p.projectId, complete: false },
      { limit: 3, offset: 0 },
    );
    expect(open).toEqual({
      tasks: [ids[0], ids[1], ids[3]].map((taskId, i) => ({
        taskId,
        taskName: ['t1', 't2', 't4'][i],
        taskNumber: [1, 2, 4][i],
      })),
      total: 6,
    });
    expect(
      await client.listTasksPage({ projectId: p.projectId }, { limit: 5, offset: 20 }),
    ).toEqual({ tasks: [], total: 7 });
    // Without paging, every task and no count, as before.
    const whole = await fetch(base(`/task?projectId=${p.projectId}`), {
      headers: { apiKey: seed.apiKey },
    });
    expect(whole.headers.get('x-total-count')).toBeNull();
    expect(await whole.json()).toHaveLength(7);
    // Bad paging values are refused and change nothing.
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1001']) {
      const bad = await raw(base(`/task?projectId=${p.projectId}&${q}`), { apiKey: seed.apiKey });
      expect(bad.status).toBe(400);
      expect((bad.json as { error: string }).error).toMatch(
        /^(limit|offset): must be a whole number/,
      );
    }
  });

  it('requires projectId to list tasks', async () => {
    const a = await raw(base('/task'), { apiKey: seed.apiKey });
    expect([a.status, (a.json as { error: string }).error]).toEqual([
      400,
      'projectId: is required',
    ]);
  });

  it('updates partially: fields left out keep their values', async () => {
    const projectId = website().projectId;
    const before = await client.createTask({
      projectId,
      name: 'Partial',
      description: 'keep me',
      priority: 1,
      dueDate: '2026-10-10',
      groupId: group('Design'),
      taskUsers: [user('Bob')],
      estimateTime: 5,
      milestoneId: 2,
    });
    const beforeRaw = await strict('getTask', client.getTask(before.taskId));
    await client.updateTask(before.taskId, { projectId, name: 'Partial, renamed' });
    const after = await strict('getTask', client.getTask(before.taskId));
    expect(after).toEqual({ ...beforeRaw, taskName: 'Partial, renamed' });
  });

  it('replaces the assignee set with taskUsers', async () => {
    const projectId = website().projectId;
    const task = await client.createTask({ projectId, taskUsers: [user('Bob'), user('Carol')] });
    const u = await strict(
      'updateTask',
      client.updateTask(task.taskId, { projectId, taskUsers: [user('Carol'), user('Dan')] }),
    );
    expect(u.TaskUsers?.map((x) => x._id)).toEqual([user('Carol'), user('Dan')]);
    const got = await strict('getTask', client.getTask(task.taskId));
    expect(got.taskUsers).toEqual([{ taskUserId: user('Carol') }, { taskUserId: user('Dan') }]);
    const none = await strict(
      'updateTask',
      client.updateTask(task.taskId, { projectId, taskUsers: [] }),
    );
    expect(none.TaskUsers).toEqual([]);
  });

  it("refuses a projectId that is not the task's own project", async () => {
    const task = await client.createTask({ projectId: website().projectId, name: 'Stay' });
    const e = await failure(
      client.updateTask(task.taskId, { projectId: seed.projects[1].projectId, name: 'Moved' }),
    );
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/^projectId: must be the task's own project/);
    expect((await client.getTask(task.taskId)).taskName).toBe('Stay');
  });

  it('records every change and comment in Comments with types 1-8 and previous values', async () => {
    const projectId = website().projectId;
    const { done } = await statusIds(projectId);
    const task = await client.createTask({
      projectId,
      name: 'History',
      priority: 2,
      dueDate: '2026-04-01',
      groupId: group('Design'),
      taskUsers: [user('Bob'), user('Carol')],
      estimateTime: 4,
    });
    await strict('postComment', client.postComment(task.taskId, { content: 'First!' }));
    const u = await strict(
      'updateTask',
      client.updateTask(task.taskId, {
        projectId,
        statusId: done,
        priority: 1,
        dueDate: '2026-05-01',
        groupId: group('Launch'),
        taskUsers: [user('Carol'), user('Dan')],
        estimateTime: 8,
      }),
    );
    const entries = u.Comments ?? [];
    const of = (type: number) => entries.filter((c) => c.Type === type);
    expect(entries.map((c) => c.Type).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(of(1)[0]).toMatchObject({ Comment: 'First!', CreatedBy: user('Alice') });
    expect(of(2)[0]).toMatchObject({ Status: true });
    expect(of(3)[0]).toMatchObject({ Priority: 1, PreviousPriority: 2 });
    expect(of(4)[0]).toMatchObject({
      DueDate: '2026-05-01T00:00:00.000Z',
      PreviousDueDate: '2026-04-01T00:00:00.000Z',
    });
    expect(of(5)[0]).toMatchObject({ Group: 'Launch', PreviousGroup: 'Design' });
    expect(of(6)[0]).toMatchObject({ Assignee: user('Dan') });
    expect(of(7)[0]).toMatchObject({ Assignee: user('Bob') });
    expect(of(8)[0]).toMatchObject({ EstimateTime: 8 });
    for (const c of entries) {
      expect(c).toMatchObject({ CreatedBy: user('Alice'), UpdatedBy: user('Alice') });
    }
    // The same values again change nothing, so nothing new is recorded.
    const again = await strict(
      'updateTask',
      client.updateTask(task.taskId, {
        projectId,
        priority: 1,
        taskUsers: [user('Dan'), user('Carol')],
      }),
    );
    expect(again.Comments).toHaveLength(entries.length);
  });

  it('serves update task at the alt address and at the base fallback', async () => {
    const projectId = website().projectId;
    const task = await client.createTask({ projectId, name: 'Paths' });
    for (const [url, name] of [
      [alt(`/task/updateTask/${task.taskId}`), 'via alt'],
      [base(`/task/updateTask/${task.taskId}`), 'via base'],
    ]) {
      const a = await raw(url, { apiKey: seed.apiKey, method: 'PUT', body: { projectId, name } });
      expect(a.status).toBe(200);
      expect(strictResponses.UpdatedTask.parse(a.json).Name).toBe(name);
    }
    expect((await client.getTask(task.taskId)).taskName).toBe('via base');
  });
});

describe('project rules', () => {
  it('copies statuses, groups, labels and feature flags from a template, not its tasks', async () => {
    const template = insertProject(
      t.service.db,
      { workspaceId: seed.workspaceId, userId: user('Alice') },
      {
        name: 'Template',
        features: {
          priority: true,
          defaultPriority: 2,
          estimate: false,
          milestone: true,
          groups: true,
        },
        statuses: [
          { name: 'Backlog', type: 1, isDefault: false },
          { name: 'Doing', type: 2, isDefault: true },
          { name: 'Shipped', type: 3, isDefault: false },
        ],
        groups: ['Alpha', 'Beta'],
        labels: [{ name: 'Urgent', color: '#ff0000' }],
      },
    );
    await client.createTask({ projectId: template, name: 'Not copied' });
    const copy = await strict(
      'createProject',
      client.createProject({ projectName: 'From template', templateId: template }),
    );
    const [a, b] = await Promise.all([
      client.getProjectDetails(template),
      strict('getProjectDetails', client.getProjectDetails(copy.projectId)),
    ]);
    const shape = (d: typeof b) => ({
      statuses: d.Status?.map((s) => [s.Name, s.Type, s.Index, s.Default]),
      labels: d.LabelsList?.map((l) => [l.Name, l.Color]),
      flags: [d.IsEstimate, d.IsMilestone, d.IsGroupEnabled, d.Priority],
    });
    expect(shape(b)).toEqual(shape(a as typeof b));
    expect(shape(b).statuses).toEqual([
      ['Backlog', 1, 0, false],
      ['Doing', 2, 1, true],
      ['Shipped', 3, 2, false],
    ]);
    expect(b.Status?.map((s) => s._id)).not.toEqual(a.Status?.map((s) => s._id));
    const groups = await client.listProjectGroups(copy.projectId);
    expect(groups.map((g) => g.groupName)).toEqual(['Alpha', 'Beta']);
    expect(await client.listTasks({ projectId: copy.projectId })).toEqual([]);
    // The copied flags are in force, and the copied Default status is used.
    const e = await failure(client.createTask({ projectId: copy.projectId, estimateTime: 1 }));
    expect(e.message).toBe('estimateTime: the estimate feature is off for this project');
    const task = await client.createTask({ projectId: copy.projectId });
    expect(task.priority).toBe('2');
    const u = await client.updateTask(task.taskId, { projectId: copy.projectId });
    expect(u.StatusId).toBe(b.Status?.find((s) => s.Name === 'Doing')?._id);
  });

  it('refuses an unknown template or customer with 400', async () => {
    const unknown = 'e'.repeat(24);
    const e1 = await failure(client.createProject({ projectName: 'x', templateId: unknown }));
    expect([e1.status, e1.message]).toEqual([
      400,
      'templateId: no project with this id in this workspace',
    ]);
    const e2 = await failure(client.createProject({ projectName: 'x', customerId: unknown }));
    expect([e2.status, e2.message]).toEqual([
      400,
      'customerId: no customer with this id in this workspace',
    ]);
    // Another workspace's project is no template here.
    const e3 = await failure(
      client.createProject({ projectName: 'x', templateId: other.projects[0].projectId }),
    );
    expect(e3.status).toBe(400);
    const e4 = await failure(
      client.updateProject(website().projectId, { customerId: other.customers[0].customerId }),
    );
    expect(e4.status).toBe(400);
  });

  it('lists the owner and the assignees as projectUsers', async () => {
    const p = await client.createProject({ projectName: 'People' });
    const t1 = await client.createTask({
      projectId: p.projectId,
      taskUsers: [user('Erin'), user('Bob')],
    });
    const got = await strict('getProject', client.getProject(p.projectId));
    expect(got.projectUsers).toEqual([user('Alice'), user('Bob'), user('Erin')]);
    // Bob on a second task, then off the first: still associated; then off both: gone.
    const t2 = await client.createTask({ projectId: p.projectId, taskUsers: [user('Bob')] });
    await client.updateTask(t1.taskId, { projectId: p.projectId, taskUsers: [user('Erin')] });
    expect((await client.getProject(p.projectId)).projectUsers).toEqual([
      user('Alice'),
      user('Bob'),
      user('Erin'),
    ]);
    await client.updateTask(t2.taskId, { projectId: p.projectId, taskUsers: [user('Carol')] });
    const details = await client.getProjectDetails(p.projectId);
    expect(details.ProjectUsers).toEqual([user('Alice'), user('Carol'), user('Erin')]);
  });
});
