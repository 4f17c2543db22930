/**
 * A stand-in for the hosted work-management service, answering the way its public clients
 * report it does (docs/hosted-service.md), over real HTTP:
 * - document-store answers: `_id` beside (or instead of) documented ids, nulls for unset
 *   fields, extra fields, numbers as strings and strings as numbers, plain dates and
 *   date-times without a zone;
 * - 200 for creates, writes answered `{message, data}` (or only `{message}` with
 *   `bareWrites`), `{data: [...]}` / `{users: [...]}` envelopes around lists;
 * - errors as `{message}` or `{error}`, 403 `{message}` for a bad key, HTML pages from a
 *   proxy (`proxyFailures`), 429 with Retry-After (`rateLimit`);
 * - update task refused on the second address (401), so clients fall back to the main one;
 * - `GET /project` lists the workspace's projects; no events are ever sent.
 *
 *   const hosted = await startHostedFake();
 *   // WORK_API_URL=hosted.baseUrl WORK_ALT_API_URL=hosted.altUrl, key hosted.apiKey
 *   const id = hosted.addTask({ projectId: hosted.projects.website, name: 'From the web app',
 *     assignees: [hosted.users.bob] });               // as if made in the service's own app
 *   hosted.calls('GET /task');                         // requests seen per route
 *
 * Exported for every suite that needs "the hosted service" (task index, watcher, bench).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SeedResult } from '../../src/service/index.js';

export interface HostedUser {
  id: string;
  name: string;
  email: string;
}

export interface HostedTask {
  id: string;
  projectId: string;
  number: number;
  name: string;
  description: string | null;
  statusId: string;
  done: boolean;
  groupId: string | null;
  priority: number;
  dueDate: string | null;
  assignees: string[];
  createdBy: string;
  createdAt: number;
}

export interface HostedProject {
  id: string;
  name: string;
  description: string | null;
  customerId: string | null;
  statuses: { id: string; name: string; type: 1 | 2 | 3; index: number; default: boolean }[];
  groups: { id: string; name: string }[];
}

export interface HostedFakeOptions {
  /** Writes answer `{message}` only: no id, no task (default false). */
  bareWrites?: boolean;
  /** Serve `GET /project` (default true); false answers 404 as services without it do. */
  projectList?: boolean;
  /** Listen on this port (default 0: a free one). */
  port?: number;
}

export interface HostedFake {
  baseUrl: string;
  altUrl: string;
  apiKey: string;
  workspaceName: string;
  /** The seeded people, by first name (same e-mails as the Slack test users). */
  users: Record<'alice' | 'bob' | 'carol' | 'dan' | 'erin', string>;
  userList: HostedUser[];
  /** The seeded projects. */
  projects: { website: string; onboarding: string };
  customers: string[];
  tasks: Map<string, HostedTask>;
  /** Comments posted, in order, with the user whose key posted each. */
  comments: { taskId: string; content: string; createdBy: string }[];
  /** Each seeded person's own key (acting as them), by first name. */
  userKeys: Record<'alice' | 'bob' | 'carol' | 'dan' | 'erin', string>;
  /** Revokes a key: from now on it is answered 403. */
  revokeKey(key: string): void;
  projectsById: Map<string, HostedProject>;
  options: Required<HostedFakeOptions>;
  /** The seeded workspace in the embedded service's seed shape (for the shared harness). */
  seed(): SeedResult;
  /** Makes a task directly in the service (its own web app): no event is sent. */
  addTask(input: {
    projectId: string;
    name: string;
    assignees?: string[];
    createdBy?: string;
    dueDate?: string;
  }): string;
  /** Adds a project (no statuses besides the defaults); returns its id. */
  addProject(name: string): string;
  /** Marks a task done, as someone would in the web app. */
  completeTask(taskId: string): void;
  /** The next `n` requests get an HTML error page from "the proxy" (default 502). */
  proxyFailures(n: number, status?: number): void;
  /** The next `n` requests get 429 with `Retry-After: seconds`. */
  rateLimit(n: number, seconds: number): void;
  /** The next `n` requests are refused with `status` and a message quoting their API key. */
  keyEchoes(n: number, status: number): void;
  /** Requests seen for a route key like `GET /task` or `PUT /task/updateTask/:id`. */
  calls(route?: string): number;
  resetCalls(): void;
  close(): Promise<void>;
}

const FIRST_NAMES = ['alice', 'bob', 'carol', 'dan', 'erin'] as const;
const FULL_NAMES = ['Alice Adams', 'Bob Brown', 'Carol Chen', 'Dan Diaz', 'Erin Evans'];

const objectId = () => randomBytes(12).toString('hex');

/** Times the way a document store's API might print them: no zone. */
const zoneless = (ms: number) => new Date(ms).toISOString().replace('Z', '');

export async function startHostedFake(options: HostedFakeOptions = {}): Promise<HostedFake> {
  const opts: Required<HostedFakeOptions> = {
    bareWrites: options.bareWrites ?? false,
    projectList: options.projectList ?? true,
    port: options.port ?? 0,
  };
  const apiKey = `hosted-${randomBytes(16).toString('hex')}`;
  const workspaceId = objectId();
  const userList: HostedUser[] = FIRST_NAMES.map((first, i) => ({
    id: objectId(),
    name: FULL_NAMES[i] ?? first,
    email: `${first}@example.com`,
  }));
  const users = Object.fromEntries(FIRST_NAMES.map((f, i) => [f, userList[i]?.id])) as Record<
    (typeof FIRST_NAMES)[number],
    string
  >;
  const tasks = new Map<string, HostedTask>();
  const comments: { taskId: string; content: string; createdBy: string }[] = [];
  // Every person may hold a key of their own, acting as them; the workspace key is Alice's.
  const userKeys = Object.fromEntries(
    FIRST_NAMES.map((f) => [f, `hosted-${f}-${randomBytes(12).toString('hex')}`]),
  ) as Record<(typeof FIRST_NAMES)[number], string>;
  const keyUser = new Map<string, string>([
    [apiKey, users.alice],
    ...FIRST_NAMES.map((f): [string, string] => [userKeys[f], users[f]]),
  ]);
  /** Each project's tasks in TaskNumber order (lists stay cheap at 100 000 tasks). */
  const byProject = new Map<string, HostedTask[]>();
  const projectsById = new Map<string, HostedProject>();
  const customers = [objectId(), objectId()];
  const counts = new Map<string, number>();
  let proxyLeft = 0;
  let proxyStatus = 502;
  let limitLeft = 0;
  let limitSeconds = 1;
  let echoLeft = 0;
  let echoStatus = 400;

  const addProject = (name: string): string => {
    const id = objectId();
    projectsById.set(id, {
      id,
      name,
      description: null,
      customerId: null,
      statuses: [
        { id: objectId(), name: 'To Do', type: 1, index: 0, default: true },
        { id: objectId(), name: 'In Progress', type: 2, index: 1, default: false },
        { id: objectId(), name: 'Done', type: 3, index: 2, default: false },
      ],
      groups: [
        { id: objectId(), name: 'Backlog' },
        { id: objectId(), name: 'Design' },
      ],
    });
    return id;
  };
  const website = addProject('Website relaunch');
  const onboarding = addProject('Customer onboarding');

  const statusOf = (p: HostedProject, type: 1 | 3) =>
    p.statuses.find((s) => s.type === type)?.id ?? '';

  const makeTask = (input: {
    projectId: string;
    name: string;
    assignees?: string[];
    createdBy?: string;
    dueDate?: string | null;
    priority?: number;
    description?: string | null;
    groupId?: string | null;
    statusId?: string;
  }): HostedTask => {
    const project = projectsById.get(input.projectId);
    if (!project) throw new Error(`no project ${input.projectId}`);
    const inProject = byProject.get(project.id) ?? [];
    byProject.set(project.id, inProject);
    const number = inProject.length + 1;
    const statusId = input.statusId ?? statusOf(project, 1);
    const task: HostedTask = {
      id: objectId(),
      projectId: project.id,
      number,
      name: input.name,
      description: input.description ?? null,
      statusId,
      done: project.statuses.find((s) => s.id === statusId)?.type === 3,
      groupId: input.groupId ?? null,
      priority: input.priority ?? 0,
      dueDate: input.dueDate ?? null,
      assignees: input.assignees ?? [],
      createdBy: input.createdBy ?? users.alice,
      createdAt: Date.now(),
    };
    tasks.set(task.id, task);
    inProject.push(task);
    return task;
  };
  makeTask({ projectId: website, name: 'Draft the sitemap', assignees: [users.bob] });
  makeTask({ projectId: website, name: 'Design the home page', dueDate: '2026-12-01' });
  makeTask({ projectId: onboarding, name: 'Kick-off call with Globex', assignees: [users.carol] });

  // ── Answers, hosted style ────────────────────────────────────────────────

  const taskAnswer = (t: HostedTask) => {
    const project = projectsById.get(t.projectId);
    return {
      _id: t.id,
      taskName: t.name,
      projectId: t.projectId,
      groupId: t.groupId,
      group: project?.groups.find((g) => g.id === t.groupId)?.name ?? null,
      description: t.description,
      status: t.done ? 1 : 0,
      subscribers: null,
      dueDate: t.dueDate,
      priority: t.priority,
      estimateTime: null,
      milestoneId: null,
      taskUsers: t.assignees.map((id) => ({ taskUserId: id, _id: objectId() })),
      CreatedBy: t.createdBy,
      TaskNumber: String(t.number),
      CreatedTime: zoneless(t.createdAt),
      __v: 0,
    };
  };
  const updatedAnswer = (t: HostedTask) => ({
    _id: t.id,
    Name: t.name,
    ProjectId: t.projectId,
    GroupId: t.groupId,
    Desc: t.description,
    StatusId: t.statusId,
    Status: t.done ? 'true' : 'false',
    TaskNumber: String(t.number),
    Priority: String(t.priority),
    DueDate: t.dueDate,
    TaskUsers: t.assignees.map((id) => ({ _id: id, CreatedBy: null })),
    Comments: null,
    UpdatedTime: zoneless(Date.now()),
  });
  const projectAnswer = (p: HostedProject) => ({
    _id: p.id,
    projectName: p.name,
    workspaceId,
    ownerId: users.alice,
    description: p.description,
    customerId: p.customerId,
    startDate: null,
    dueDate: null,
    favoriteUsers: null,
    projectUsers: userList.map((u) => u.id),
    color: '#3e63dd',
  });
  const detailsAnswer = (p: HostedProject) => ({
    _id: p.id,
    Name: p.name,
    CompanyId: workspaceId,
    Description: p.description,
    CustomerId: p.customerId,
    StartDate: null,
    CreatedTime: zoneless(Date.now()),
    IsMilestone: 0,
    IsEstimate: 'false',
    IsGroupEnabled: 1,
    MultiAsignee: 'true',
    LabelsEnabled: null,
    Priority: { Enabled: 'true', Default: '0' },
    LabelsList: null,
    Resources: null,
    taskFilter: null,
    ProjectUsers: userList.map((u) => u.id),
    Status: p.statuses.map((s) => ({
      _id: s.id,
      Name: s.name,
      Type: String(s.type),
      Index: s.index,
      Default: s.default ? 1 : 0,
    })),
  });

  // ── Routes ───────────────────────────────────────────────────────────────

  type Answer = { status: number; body: unknown; headers?: Record<string, string> };
  const ok = (body: unknown): Answer => ({ status: 200, body });
  const fail = (status: number, message: string): Answer => ({ status, body: { message } });
  const written = (message: string, data: unknown): Answer =>
    ok(opts.bareWrites ? { message } : { success: true, message, data });

  const route = (
    method: string,
    address: 'base' | 'alt',
    path: string,
    query: URLSearchParams,
    body: Record<string, unknown>,
    caller: string,
  ): { key: string; answer: Answer } => {
    const parts = path.split('/').filter(Boolean);
    const key = `${method} /${parts.map((p, i) => (/^[0-9a-f]{24}$/.test(p) && i > 0 ? ':id' : p)).join('/')}`;
    const at = `${address}:${key}`;
    const project = (id: string | undefined) => (id ? projectsById.get(id) : undefined);
    const task = (id: string | undefined) => (id ? tasks.get(id) : undefined);
    switch (at) {
      case 'base:GET /verify':
        return {
          key,
          answer: ok({ data: { workspaceId, workspaceName: 'Hosted Co', createdBy: caller } }),
        };
      case 'base:GET /task': {
        const p = project(query.get('projectId') ?? undefined);
        if (!p) return { key, answer: fail(404, 'Project not found') };
        const complete = query.get('complete');
        const list = (byProject.get(p.id) ?? [])
          .filter((t) => complete === null || String(t.done) === complete)
          .map((t) => ({ _id: t.id, taskName: t.name, TaskNumber: t.number }));
        return { key, answer: ok({ data: list, count: list.length }) };
      }
      case 'base:POST /task': {
        const p = project(body.projectId as string);
        if (!p) return { key, answer: fail(404, 'Project not found') };
        const name = (body.taskName ?? body.name) as string | undefined;
        if (!name) return { key, answer: fail(400, 'Task name is required') };
        const t = makeTask({
          projectId: p.id,
          name,
          assignees: (body.taskUsers as string[] | undefined) ?? [],
          createdBy: caller,
          dueDate: (body.dueDate as string | undefined) ?? null,
          priority: body.priority as number | undefined,
          description: (body.description as string | undefined) ?? null,
          groupId: (body.groupId as string | undefined) ?? null,
          statusId: body.statusId as string | undefined,
        });
        return { key, answer: written('Task created successfully', taskAnswer(t)) };
      }
      case 'base:GET /task/:id': {
        const t = task(parts[1]);
        return { key, answer: t ? ok(taskAnswer(t)) : fail(404, 'Task not found') };
      }
      case 'alt:PUT /task/updateTask/:id':
        return { key, answer: { status: 401, body: { error: 'Unauthorized' } } };
      case 'base:PUT /task/updateTask/:id': {
        const t = task(parts[2]);
        if (!t) return { key, answer: fail(404, 'Task not found') };
        const p = project(t.projectId);
        const name = (body.taskName ?? body.name) as string | undefined;
        if (name !== undefined) t.name = name;
        if (body.description !== undefined) t.description = body.description as string;
        if (body.dueDate !== undefined) t.dueDate = body.dueDate as string;
        if (body.priority !== undefined) t.priority = body.priority as number;
        if (body.groupId !== undefined) t.groupId = body.groupId as string;
        if (body.taskUsers !== undefined) t.assignees = body.taskUsers as string[];
        if (typeof body.statusId === 'string') {
          t.statusId = body.statusId;
          t.done = p?.statuses.find((s) => s.id === body.statusId)?.type === 3;
        }
        return { key, answer: written('Task updated', updatedAnswer(t)) };
      }
      case 'base:POST /task/:id/comments': {
        const t = task(parts[1]);
        if (!t) return { key, answer: fail(404, 'Task not found') };
        comments.push({ taskId: t.id, content: String(body.content), createdBy: caller });
        return {
          key,
          answer: written('Comment added', { _id: objectId(), content: body.content }),
        };
      }
      case 'base:GET /project':
        if (!opts.projectList) return { key, answer: fail(404, 'Cannot GET /v1.0/project') };
        return { key, answer: ok({ data: [...projectsById.values()].map(projectAnswer) }) };
      case 'base:DELETE /project/:id': {
        const p = project(parts[1]);
        if (!p) return { key, answer: fail(404, 'Project not found') };
        projectsById.delete(p.id);
        for (const t of byProject.get(p.id) ?? []) tasks.delete(t.id);
        byProject.delete(p.id);
        return { key, answer: written('Project deleted', null) };
      }
      case 'base:POST /project': {
        const name = body.projectName as string | undefined;
        if (!name) return { key, answer: fail(400, 'projectName is required') };
        const p = project(addProject(name));
        return { key, answer: written('Project created', p && projectAnswer(p)) };
      }
      case 'base:GET /project/:id': {
        const p = project(parts[1]);
        return { key, answer: p ? ok({ data: projectAnswer(p) }) : fail(404, 'Project not found') };
      }
      case 'base:PUT /project/:id': {
        const p = project(parts[1]);
        if (!p) return { key, answer: fail(404, 'Project not found') };
        if (typeof body.projectName === 'string') p.name = body.projectName;
        if (typeof body.description === 'string') p.description = body.description;
        if (typeof body.customerId === 'string') p.customerId = body.customerId;
        return { key, answer: written('Project updated', projectAnswer(p)) };
      }
      case 'alt:GET /project/:id/getCurrentProjectDetails': {
        const p = project(parts[1]);
        return { key, answer: p ? ok({ data: detailsAnswer(p) }) : fail(404, 'Project not found') };
      }
      case 'base:GET /project/:id/group': {
        const p = project(parts[1]);
        if (!p) return { key, answer: fail(404, 'Project not found') };
        const groups = p.groups.map((g) => ({ _id: g.id, groupName: g.name, Description: null }));
        return { key, answer: ok(groups) };
      }
      case 'base:GET /company/customers':
        return {
          key,
          answer: ok({
            customers: [
              {
                _id: customers[0],
                companyName: 'Acme Corp',
                firstName: 'Wile',
                lastName: null,
                email: null,
                phone: null,
                address: null,
                clients: null,
              },
              { _id: customers[1], companyName: 'Globex', firstName: 'Hank', phone: 5550100 },
              { companyName: 'No id, dropped' },
            ],
          }),
        };
      case 'base:GET /company/users':
        return {
          key,
          answer: ok({
            users: userList.map((u, i) => ({
              _id: u.id,
              name: u.name,
              email: u.email,
              phone: null,
              profile_photo: null,
              isOwner: i === 0 ? 1 : 0,
              isAdmin: i === 0 ? 'true' : 'false',
            })),
          }),
        };
      default:
        return { key, answer: fail(404, `Cannot ${method} ${path}`) };
    }
  };

  const send = (res: ServerResponse, a: Answer) => {
    const html = typeof a.body === 'string';
    res.writeHead(a.status, {
      'content-type': html ? 'text/html' : 'application/json; charset=utf-8',
      ...a.headers,
    });
    res.end(html ? a.body : JSON.stringify(a.body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    const address = url.pathname.startsWith('/api/v1/')
      ? 'alt'
      : url.pathname.startsWith('/v1.0/')
        ? 'base'
        : undefined;
    const path = url.pathname.replace(/^\/(api\/v1|v1\.0)/, '');
    if (proxyLeft > 0) {
      proxyLeft--;
      const title = `${proxyStatus} ${proxyStatus === 502 ? 'Bad Gateway' : 'Error'}`;
      send(res, {
        status: proxyStatus,
        body: `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>`,
      });
      return;
    }
    if (echoLeft > 0) {
      echoLeft--;
      const message = `Request with apiKey ${String(req.headers.apikey)} was refused.`;
      send(res, { status: echoStatus, body: { message } });
      return;
    }
    if (limitLeft > 0) {
      limitLeft--;
      send(res, {
        status: 429,
        body: { message: 'Too many requests' },
        headers: { 'retry-after': String(limitSeconds) },
      });
      return;
    }
    if (!address) return send(res, fail(404, 'Not found'));
    const caller = keyUser.get(String(req.headers.apikey ?? ''));
    if (!caller) return send(res, fail(403, 'Invalid API key'));
    let body: Record<string, unknown> = {};
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        return send(res, fail(400, 'Unexpected token in JSON'));
      }
    }
    const { key, answer } = route(
      req.method ?? 'GET',
      address,
      path,
      url.searchParams,
      body,
      caller,
    );
    counts.set(key, (counts.get(key) ?? 0) + 1);
    send(res, answer);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, { status: 500, body: { error: 'Internal error' } }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: `${origin}/v1.0`,
    altUrl: `${origin}/api/v1`,
    apiKey,
    workspaceName: 'Hosted Co',
    users,
    userList,
    projects: { website, onboarding },
    customers,
    tasks,
    comments,
    userKeys,
    revokeKey: (key) => {
      keyUser.delete(key);
    },
    projectsById,
    options: opts,
    seed: () => ({
      apiKey,
      workspaceId,
      workspaceName: 'Hosted Co',
      users: userList.map((u, i) => ({ ...u, apiKey: userKeys[FIRST_NAMES[i]!] })),
      customers: [
        { customerId: customers[0] ?? '', companyName: 'Acme Corp' },
        { customerId: customers[1] ?? '', companyName: 'Globex' },
      ],
      projects: [website, onboarding].map((id) => {
        const p = projectsById.get(id)!;
        return {
          projectId: id,
          projectName: p.name,
          groups: p.groups.map((g) => ({ groupId: g.id, groupName: g.name })),
        };
      }),
    }),
    addTask: (input) => makeTask(input).id,
    addProject,
    completeTask(taskId) {
      const t = tasks.get(taskId);
      const p = t && projectsById.get(t.projectId);
      if (!t || !p) throw new Error(`no task ${taskId}`);
      t.done = true;
      t.statusId = statusOf(p, 3);
    },
    proxyFailures(n, status = 502) {
      proxyLeft = n;
      proxyStatus = status;
    },
    rateLimit(n, seconds) {
      limitLeft = n;
      limitSeconds = seconds;
    },
    keyEchoes(n, status) {
      echoLeft = n;
      echoStatus = status;
    },
    calls: (key) =>
      key === undefined ? [...counts.values()].reduce((a, b) => a + b, 0) : (counts.get(key) ?? 0),
    resetCalls: () => counts.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
