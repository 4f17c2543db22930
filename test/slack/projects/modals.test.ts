/**
 * The project create and edit modals end to end: a loading view opened with the trigger and
 * replaced by the form; validation answered with `response_action: 'errors'` by block_id
 * (ours, then the service's 400 verbatim); success checked in the service; templates; the
 * channel link; partial updates with feature toggles and default priority; a slow service.
 */
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject } from '../../../src/service/projects.js';
import { WorkClientCache } from '../../../src/slack/context/work-clients.js';
import { PROJECT_BLOCK, PROJECT_INPUT } from '../../../src/slack/projects/form/fields.js';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
let acme: string;
let globex: string;
beforeAll(async () => {
  h = await startHarness({ connect: true });
  acme = h.seed.customers[0].customerId;
  globex = h.seed.customers[1].customerId;
});
afterAll(() => h?.stop());

interface OpenedView {
  callback_id: string;
  private_metadata: string;
  blocks: { block_id?: string; type: string; element?: Record<string, unknown> }[];
}

/** Waits for the loading view opened with `triggerId` and the form that replaces it. */
async function formFor(triggerId: string | undefined) {
  const open = await h.fake.waitForCall(
    'views.open',
    (c) => c.body.trigger_id === triggerId && c.reply !== undefined,
  );
  expect((open.body.view as OpenedView).callback_id).toBe(VIEW.loading);
  const viewId = (open.reply as { view: { id: string } }).view.id;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === viewId);
  expect(update.seq).toBeGreaterThan(open.seq);
  return { viewId, view: update.body.view as OpenedView };
}

async function openCommand(text: string, channelId = 'C_GENERAL') {
  const res = await h.slack.slashCommand(text, { channelId });
  expect(res.status).toBe(200);
  return { res, ...(await formFor(res.triggerId)) };
}

function element(view: OpenedView, block: string) {
  return view.blocks.find((b) => b.block_id === block)?.element;
}

type Values = Record<string, Record<string, Record<string, unknown>>>;
const text = (block: keyof typeof PROJECT_BLOCK, value: string): Values => ({
  [PROJECT_BLOCK[block]]: { [PROJECT_INPUT[block]]: { type: 'plain_text_input', value } },
});
const date = (block: 'start' | 'due', value: string | null): Values => ({
  [PROJECT_BLOCK[block]]: { [PROJECT_INPUT[block]]: { type: 'datepicker', selected_date: value } },
});
const select = (block: keyof typeof PROJECT_BLOCK, value: string | null): Values => ({
  [PROJECT_BLOCK[block]]: {
    [PROJECT_INPUT[block]]: {
      type: 'static_select',
      selected_option: value === null ? null : { value, text: { type: 'plain_text', text: value } },
    },
  },
});
const checks = (block: 'features' | 'linkChannel', values: string[]): Values => ({
  [PROJECT_BLOCK[block]]: {
    [PROJECT_INPUT[block]]: {
      type: 'checkboxes',
      selected_options: values.map((value) => ({ value })),
    },
  },
});
const merge = (...parts: Values[]): Values => Object.assign({}, ...parts);

function submit(callbackId: string, opened: { viewId: string; view: OpenedView }, values: Values) {
  return h.slack.viewSubmission({
    callbackId,
    id: opened.viewId,
    values,
    privateMetadata: opened.view.private_metadata,
    blocks: opened.view.blocks,
  });
}

describe('create', () => {
  it('opens a loading view at once, then the form with customers, templates and the link box', async () => {
    // A project looked up earlier is offered as a template.
    await h.replyTo(await h.slack.slashCommand(`project ${h.seed.projects[0].projectId}`));
    const { view } = await openCommand('project new');
    expect(view.callback_id).toBe(VIEW.projectCreate);
    const customers = element(view, PROJECT_BLOCK.customer) as { options: { value: string }[] };
    expect(customers.options.map((o) => o.value)).toEqual([acme, globex]);
    expect(JSON.stringify(customers)).toContain('Acme Corp');
    const templates = element(view, PROJECT_BLOCK.template) as { options: { value: string }[] };
    expect(templates.options.map((o) => o.value)).toContain(h.seed.projects[0].projectId);
    expect(element(view, PROJECT_BLOCK.start)?.type).toBe('datepicker');
    expect(element(view, PROJECT_BLOCK.due)?.type).toBe('datepicker');
    expect(JSON.stringify(element(view, PROJECT_BLOCK.linkChannel))).toContain(
      'Use as this channel’s project',
    );
    expect(JSON.parse(view.private_metadata)).toMatchObject({ channelId: 'C_GENERAL' });
  });

  it('prefills the name typed after the command', async () => {
    const { view } = await openCommand('project new  Spring <campaign> ');
    expect(element(view, PROJECT_BLOCK.name)?.initial_value).toBe('Spring <campaign>');
  });

  it('prefills the name as typed, not as Slack escaped it', async () => {
    const { view } = await openCommand('project new R&amp;D &lt;labs&gt;');
    expect(element(view, PROJECT_BLOCK.name)?.initial_value).toBe('R&D <labs>');
  });

  it('answers a missing name and a due date before the start under their fields', async () => {
    const opened = await openCommand('project new');
    const noName = await submit(VIEW.projectCreate, opened, text('name', '   '));
    expect(noName.json).toEqual({
      response_action: 'errors',
      errors: { [PROJECT_BLOCK.name]: 'Give the project a name.' },
    });
    const backwards = await submit(
      VIEW.projectCreate,
      opened,
      merge(text('name', 'Backwards'), date('start', '2026-05-02'), date('due', '2026-05-01')),
    );
    expect(backwards.json).toEqual({
      response_action: 'errors',
      errors: { [PROJECT_BLOCK.due]: 'The due date must not be before the start date.' },
    });
    const impossible = await submit(
      VIEW.projectCreate,
      opened,
      merge(text('name', 'Leap'), date('due', '2026-02-30')),
    );
    expect(impossible.json).toEqual({
      response_action: 'errors',
      errors: { [PROJECT_BLOCK.due]: 'dueDate: is not a date on the calendar' },
    });
    const names = (await h.worklink.store.knownProjects.list(h.teamId)).map((p) => p.projectName);
    expect(names).not.toContain('Backwards');
    expect(names).not.toContain('Leap');
  });

  it('shows the service’s 400 verbatim under the field it names', async () => {
    const opened = await openCommand('project new');
    const res = await submit(
      VIEW.projectCreate,
      opened,
      merge(text('name', 'Ghost customer'), select('customer', 'ffffffffffffffffffffffff')),
    );
    expect(res.json).toEqual({
      response_action: 'errors',
      errors: {
        [PROJECT_BLOCK.customer]: 'customerId: no customer with this id in this workspace',
      },
    });
  });

  it('creates the project, links the channel when asked, and posts its card', async () => {
    const channel = 'C_CREATE';
    const opened = await openCommand('project new', channel);
    const res = await submit(
      VIEW.projectCreate,
      opened,
      merge(
        text('name', 'Launch plan'),
        select('customer', globex),
        date('start', '2026-04-01'),
        date('due', '2026-04-30'),
        checks('linkChannel', ['link']),
      ),
    );
    expect(res.json?.response_action).toBe('update');
    const notice = JSON.stringify(res.json?.view);
    const id = /Created \*Launch plan\* \(`([0-9a-f]{24})`\)/.exec(notice)?.[1];
    expect(id).toBeDefined();
    expect(notice).toContain(`It is now the default project of <#${channel}>.`);

    const project = await h.work.getProject(id!);
    expect(project).toMatchObject({
      projectName: 'Launch plan',
      customerId: globex,
      startDate: '2026-04-01T00:00:00.000Z',
      dueDate: '2026-04-30T00:00:00.000Z',
    });
    expect((await h.worklink.store.channelProjects.get(h.teamId, channel))?.projectId).toBe(id);
    expect((await h.worklink.store.knownProjects.get(h.teamId, id!))?.projectName).toBe(
      'Launch plan',
    );

    // The card arrives where the command was typed.
    const card = await h.replyTo(opened.res);
    expect(card.text).toContain('Created *Launch plan*');
    expect(JSON.stringify(card.blocks)).toContain('*Customer*\\nGlobex');
  });

  it('leaves the channel alone when the box is not ticked', async () => {
    const opened = await openCommand('project new', 'C_NOBOX');
    const res = await submit(VIEW.projectCreate, opened, text('name', 'Unlinked'));
    expect(res.json?.response_action).toBe('update');
    expect(await h.worklink.store.channelProjects.get(h.teamId, 'C_NOBOX')).toBeUndefined();
  });

  it('copies statuses, groups, labels and features from a template', async () => {
    const template = insertProject(
      h.service.db,
      { workspaceId: h.seed.workspaceId, userId: h.seed.users[0].id },
      {
        name: 'Kanban template',
        statuses: [
          { name: 'Backlog', type: 1, isDefault: true },
          { name: 'Doing', type: 2, isDefault: false },
          { name: 'Review', type: 2, isDefault: false },
          { name: 'Shipped', type: 3, isDefault: false },
        ],
        groups: ['Now', 'Next'],
        labels: [{ name: 'Risk', color: '#ff0000' }],
        features: { estimate: false, defaultPriority: 2 },
      },
    );
    await h.replyTo(await h.slack.slashCommand(`project ${template}`));
    const opened = await openCommand('project new');
    const options = (element(opened.view, PROJECT_BLOCK.template) as { options: unknown[] })
      .options;
    expect(JSON.stringify(options)).toContain('Kanban template');
    const res = await submit(
      VIEW.projectCreate,
      opened,
      merge(text('name', 'From kanban'), select('template', template)),
    );
    const notice = JSON.stringify(res.json?.view);
    expect(notice).toContain('copied from *Kanban template*');
    const id = /`([0-9a-f]{24})`/.exec(notice)?.[1] ?? '';
    const details = await h.work.getProjectDetails(id);
    expect(details.Status?.map((s) => [s.Name, s.Type, s.Default])).toEqual([
      ['Backlog', 1, true],
      ['Doing', 2, false],
      ['Review', 2, false],
      ['Shipped', 3, false],
    ]);
    expect(details.IsEstimate).toBe(false);
    expect(details.Priority?.Default).toBe(2);
    expect(details.LabelsList?.map((l) => l.Name)).toEqual(['Risk']);
    expect((await h.work.listProjectGroups(id)).map((g) => g.groupName)).toEqual(['Now', 'Next']);
  });

  it('closes the modal when the service is slow and reports the project afterwards', async () => {
    // The create is held until the modal is answered: past the submit budget, shortened here
    // from Slack's 3 s so that the test does not sit through it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const proxy = await delayingProxy(h.service.url, (method, path) =>
      method === 'POST' && path === '/v1.0/project' ? held : 0,
    );
    const original = h.worklink.deps.workClients;
    h.worklink.deps.workClients = new WorkClientCache({
      baseUrl: `${proxy.url}/v1.0`,
      altUrl: `${proxy.url}/api/v1`,
    });
    h.worklink.deps.config.waits = { submitBudgetMs: 200 };
    try {
      const opened = await openCommand('project new', 'C_SLOW');
      const res = await submit(
        VIEW.projectCreate,
        opened,
        merge(text('name', 'Slow one'), checks('linkChannel', ['link'])),
      );
      h.fake.mark('submission answered');
      // An empty 200 closes the modal while the create is still running.
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(proxy.finished).toBe(0);
      release();
      const card = await h.replyTo(opened.res);
      expect(card.text).toMatch(/^Created \*Slow one\*/);
      expect(proxy.finished).toBe(1);
      expect(await h.worklink.store.channelProjects.get(h.teamId, 'C_SLOW')).toBeDefined();
    } finally {
      release();
      h.worklink.deps.config.waits = undefined;
      h.worklink.deps.workClients = original;
      await proxy.close();
    }
  });
});

describe('edit', () => {
  let projectId: string;
  beforeAll(async () => {
    const p = await h.work.createProject({
      projectName: 'Edit me',
      customerId: acme,
      startDate: '2026-03-01',
      dueDate: '2026-03-31',
      templateId: h.seed.projects[0].projectId,
    });
    projectId = p.projectId;
    await h.work.updateProject(projectId, { description: 'First words.' });
  });

  it('opens the form prefilled with every update field', async () => {
    const { view } = await openCommand(`project edit ${projectId}`);
    expect(view.callback_id).toBe(VIEW.projectEdit);
    expect(element(view, PROJECT_BLOCK.name)?.initial_value).toBe('Edit me');
    expect(element(view, PROJECT_BLOCK.customer)?.initial_option).toMatchObject({ value: acme });
    expect(element(view, PROJECT_BLOCK.start)?.initial_date).toBe('2026-03-01');
    expect(element(view, PROJECT_BLOCK.due)?.initial_date).toBe('2026-03-31');
    expect(element(view, PROJECT_BLOCK.description)?.initial_value).toBe('First words.');
    const features = element(view, PROJECT_BLOCK.features) as {
      options: { value: string }[];
      initial_options: { value: string }[];
    };
    expect(features.options.map((o) => o.value)).toEqual(['priority', 'estimate', 'milestone']);
    expect(features.initial_options.map((o) => o.value)).toEqual([
      'priority',
      'estimate',
      'milestone',
    ]);
    const priority = element(view, PROJECT_BLOCK.defaultPriority) as {
      options: { value: string }[];
      initial_option: { value: string };
    };
    expect(priority.options.map((o) => o.value)).toEqual([
      'No Priority',
      'Urgent',
      'High',
      'Medium',
      'Low',
    ]);
    expect(priority.initial_option.value).toBe('Medium');
    expect(await h.worklink.store.knownProjects.get(h.teamId, projectId)).toBeDefined();
  });

  it('sends only the changed fields: toggles, default priority and description', async () => {
    const opened = await openCommand(`project edit ${projectId}`);
    // Someone renames the project elsewhere while the form is open.
    await h.work.updateProject(projectId, { projectName: 'Renamed elsewhere' });
    const res = await submit(
      VIEW.projectEdit,
      opened,
      merge(
        text('name', 'Edit me'),
        select('customer', acme),
        date('start', '2026-03-01'),
        date('due', '2026-04-15'),
        text('description', 'Second words.'),
        checks('features', ['priority']),
        select('defaultPriority', 'High'),
      ),
    );
    expect(res.json?.response_action).toBe('update');
    expect(JSON.stringify(res.json?.view)).toContain(
      'Saved *Renamed elsewhere*: changed due date, description, estimates off, milestones off, default priority High.',
    );
    const details = await h.work.getProjectDetails(projectId);
    expect(details.Priority).toEqual({ Enabled: true, Default: 2 });
    expect(details.IsEstimate).toBe(false);
    expect(details.IsMilestone).toBe(false);
    const project = await h.work.getProject(projectId);
    expect(project).toMatchObject({
      // Not sent: the name typed equals the one the form opened with.
      projectName: 'Renamed elsewhere',
      description: 'Second words.',
      customerId: acme,
      startDate: '2026-03-01T00:00:00.000Z',
      dueDate: '2026-04-15T00:00:00.000Z',
    });
    const card = await h.replyTo(opened.res);
    expect(JSON.stringify(card.blocks)).toContain(
      'Priority on (default: High) · Estimates off · Milestones off',
    );
  });

  it('turns priority off and a feature back on', async () => {
    const opened = await openCommand(`project edit ${projectId}`);
    const res = await submit(
      VIEW.projectEdit,
      opened,
      merge(text('name', 'Renamed elsewhere'), checks('features', ['milestone'])),
    );
    expect(JSON.stringify(res.json?.view)).toContain('changed priority off, milestones on.');
    const details = await h.work.getProjectDetails(projectId);
    expect(details.Priority?.Enabled).toBe(false);
    expect(details.IsMilestone).toBe(true);
    expect(details.IsEstimate).toBe(false);
  });

  it('answers input problems under their fields and changes nothing', async () => {
    const before = await h.work.getProject(projectId);
    const opened = await openCommand(`project edit ${projectId}`);
    const empty = await submit(VIEW.projectEdit, opened, text('name', ' '));
    expect(empty.json).toEqual({
      response_action: 'errors',
      errors: { [PROJECT_BLOCK.name]: 'A project needs a name.' },
    });
    const early = await submit(
      VIEW.projectEdit,
      opened,
      merge(text('name', 'Renamed elsewhere'), date('due', '2026-02-01')),
    );
    expect(early.json).toEqual({
      response_action: 'errors',
      errors: {
        [PROJECT_BLOCK.due]: 'The due date must not be before the start date (2026-03-01).',
      },
    });
    const ghost = await submit(
      VIEW.projectEdit,
      opened,
      merge(text('name', 'Renamed elsewhere'), select('customer', 'eeeeeeeeeeeeeeeeeeeeeeee')),
    );
    expect(ghost.json).toEqual({
      response_action: 'errors',
      errors: {
        [PROJECT_BLOCK.customer]: 'customerId: no customer with this id in this workspace',
      },
    });
    const unchanged = await submit(
      VIEW.projectEdit,
      opened,
      merge(text('name', 'Renamed elsewhere'), checks('features', ['milestone'])),
    );
    expect(JSON.stringify(unchanged.json?.view)).toContain('Nothing to save');
    expect(await h.work.getProject(projectId)).toEqual(before);
  });

  it('opens from the card’s Edit button', async () => {
    const res = await h.slack.blockAction({ actionId: ACTION.projectEdit, value: projectId });
    const { view } = await formFor(res.triggerId);
    expect(view.callback_id).toBe(VIEW.projectEdit);
    expect(JSON.parse(view.private_metadata)).toMatchObject({ projectId });
  });

  it('says why when the project does not exist', async () => {
    const unknown = '0123456789abcdef01234567';
    const { view } = await openCommand(`project edit ${unknown}`);
    expect(JSON.stringify(view.blocks)).toContain(
      `Could not load the project: there is no project \`${unknown}\` in the connected workspace.`,
    );
  });

  it('refuses a form whose metadata is not its own', async () => {
    const res = await h.slack.viewSubmission({
      callbackId: VIEW.projectEdit,
      values: text('name', 'Hijack'),
      privateMetadata: '{"projectId":42}',
    });
    expect(JSON.stringify(res.json?.view)).toContain('This form is out of date');
  });
});

/** An HTTP proxy to the service that holds chosen requests back for a while. */
/** Forwards to the service; a request `delayFor` answers with a promise waits for it first. */
async function delayingProxy(
  target: string,
  delayFor: (method: string, path: string) => Promise<void> | 0,
) {
  const to = new URL(target);
  const state = { finished: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const wait = delayFor(req.method ?? 'GET', req.url ?? '/');
      void Promise.resolve(wait).then(() => {
        const upstream = request(
          {
            host: to.hostname,
            port: to.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('end', () => {
              if (wait !== 0) state.finished++;
            });
          },
        );
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get finished() {
      return state.finished;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
