/**
 * One length guard for Block Kit (src/slack/ui/limits.ts), tested at Slack's documented
 * limits, and the overflows it ends, through signed requests against the fake Slack (which
 * checks blocks and views as Slack does, response_url posts included):
 * - `/work project new` in a channel whose project has a long name (an option over 75);
 * - a pick list whose tasks have many assignees (a section over 3,000);
 * - a list heading with a very long project name;
 * - the project edit form of a 201-character name (initial_value over max_length), whose
 *   unchanged submission must not write the cut name back; the same for a task's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBlocks, validateView } from '../../src/sandbox/block-validation.js';
import { sql } from '../../src/service/db.js';
import { forgetProjectLists } from '../../src/service/list-cache.js';
import { forgetTask } from '../../src/service/task-cache.js';
import { createUser } from '../../src/service/users.js';
import { PROJECT_BLOCK } from '../../src/slack/projects/form/fields.js';
import { VIEW } from '../../src/slack/ui/block-ids.js';
import {
  fitBlocks,
  fitMessage,
  fitOptionsAnswer,
  fitView,
  LIMIT,
} from '../../src/slack/ui/limits.js';
import type { RecordedCall } from '../support/fake-slack.js';
import { type Harness, startHarness } from '../support/harness.js';
import { linkChannel, stateFor, type ViewJson } from './tasks/helpers.js';

const x = (n: number) => 'x'.repeat(n);

describe('the guard, at the limits', () => {
  const view = (n: number) => ({
    type: 'modal' as const,
    title: { type: 'plain_text' as const, text: x(LIMIT.viewTitle + n) },
    submit: { type: 'plain_text' as const, text: 'Save' },
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: x(LIMIT.header + n) } },
      { type: 'section', text: { type: 'mrkdwn', text: x(LIMIT.text + n) } },
      { type: 'section', fields: [{ type: 'mrkdwn', text: x(LIMIT.field + n) }] },
      { type: 'context', elements: [{ type: 'mrkdwn', text: x(LIMIT.text + n) }] },
      {
        type: 'actions',
        elements: [
          { type: 'button', action_id: 'b', text: { type: 'plain_text', text: x(75 + n) } },
          {
            type: 'static_select',
            action_id: 's',
            placeholder: { type: 'plain_text', text: x(LIMIT.placeholder + n) },
            options: [{ text: { type: 'plain_text', text: x(LIMIT.optionText + n) }, value: 'v' }],
          },
        ],
      },
      {
        type: 'input',
        label: { type: 'plain_text', text: x(LIMIT.label + n) },
        hint: { type: 'plain_text', text: x(LIMIT.hint + n) },
        element: {
          type: 'plain_text_input',
          action_id: 'i',
          max_length: 200,
          initial_value: x(200 + n),
        },
      },
    ],
  });

  it('leaves what is exactly at the limit as it is', () => {
    expect(validateView(view(0), 'modal')).toEqual([]);
    expect(fitView(view(0))).toEqual(view(0));
  });

  it('sends what has nothing over a limit as it is, without copying it', () => {
    const v = view(0);
    expect(fitView(v)).toBe(v);
    const message = { text: x(LIMIT.messageText), blocks: v.blocks };
    expect(fitMessage(message)).toBe(message);
    const answer = { options: [{ text: { type: 'plain_text', text: x(75) }, value: 'v' }] };
    expect(fitOptionsAnswer(answer)).toBe(answer);
  });

  it('cuts on a copy, leaving what it was given as it was', () => {
    const v = view(1);
    const message = { text: x(LIMIT.messageText + 1), blocks: v.blocks };
    const fitted = fitMessage(message);
    expect(fitted).not.toBe(message);
    expect(fitted.text).toHaveLength(LIMIT.messageText);
    expect(message.text).toHaveLength(LIMIT.messageText + 1);
    expect(v).toEqual(view(1));
    expect(validateBlocks(fitted.blocks, 'modal')).toEqual([]);
  });

  it('cuts what is one over to the limit, so Slack takes it', () => {
    expect(validateView(view(1), 'modal').length).toBeGreaterThanOrEqual(10);
    const fitted = fitView(view(1));
    expect(validateView(fitted, 'modal')).toEqual([]);
    expect(fitted.title.text).toHaveLength(LIMIT.viewTitle);
    expect(fitted.title.text.endsWith('…')).toBe(true);
    expect(validateBlocks(fitBlocks(view(1).blocks), 'modal')).toEqual([]);
  });
});

describe('through Slack', () => {
  let h: Harness;
  let projectId: string;
  beforeAll(async () => {
    h = await startHarness({ connect: true });
    projectId = await linkChannel(h, 0);
  });
  afterAll(() => h?.stop());

  /** Longer than the embedded service takes through its API (the hosted one takes them). */
  const setProjectName = (id: string, name: string) => {
    sql(h.service.db, 'UPDATE projects SET name = ? WHERE id = ?').run(name, id);
    forgetProjectLists(h.service.db, id);
  };

  /** The form that replaced the loading view opened by this command, and Slack's answer. */
  async function formFor(text: string): Promise<{ call: RecordedCall; view: ViewJson }> {
    const res = await h.slack.slashCommand(text);
    const open = await h.fake.waitForCall(
      'views.open',
      (c) => c.body.trigger_id === res.triggerId && c.reply !== undefined,
    );
    const viewId = (open.reply as { view: { id: string } }).view.id;
    const call = await h.fake.waitForCall(
      'views.update',
      (c) => c.body.view_id === viewId && c.reply !== undefined,
    );
    return { call, view: call.body.view as ViewJson };
  }

  it('opens `/work project new` in a channel whose project has a long name', async () => {
    const name = `Customer onboarding and account migration ${x(10)}`; // 53 characters
    await setProjectName(projectId, name);
    await h.worklink.store.knownProjects.remember(h.teamId, projectId, name);
    const { call, view } = await formFor('project new');
    expect(call.reply).toMatchObject({ ok: true });
    expect(view.callback_id).toBe(VIEW.projectCreate);
    const box = view.blocks.find((b) => b.block_id === PROJECT_BLOCK.linkChannel);
    const label = box?.element?.options?.[0]?.text.text ?? '';
    expect(label.startsWith('Use as this channel’s project (instead of Customer')).toBe(true);
    expect(label.length).toBeLessThanOrEqual(LIMIT.optionText);
  });

  it('answers a pick list whose tasks have many assignees', async () => {
    const ids = Array.from({ length: 40 }, (_, i) =>
      createUser(h.service.db, h.seed.workspaceId, {
        name: `Person ${i} ${x(70)}`,
        email: `person${i}@example.com`,
      }),
    );
    for (const name of ['Widget alpha', 'Widget beta']) {
      await h.work.createTask({ projectId, name, taskUsers: ids });
    }
    // The list reads the tasks, so the index knows their assignees.
    await h.replyTo(await h.slack.slashCommand('list'));
    const res = await h.slack.slashCommand('done widget');
    const reply = await h.replyTo(res);
    expect(h.fake.responses.find((r) => r.body === reply)?.problems).toBeUndefined();
    expect(JSON.stringify(reply.blocks)).toContain('and 35 more');
  });

  it('lists the tasks of a project with a very long name', async () => {
    await setProjectName(projectId, `Website ${x(3100)}`);
    const res = await h.slack.slashCommand('list');
    const reply = await h.replyTo(res);
    expect(h.fake.responses.find((r) => r.body === reply)?.problems).toBeUndefined();
    expect(String(reply.text)).toContain('Open tasks in Website');
  });

  it('edits a project with a 201-character name, and keeps it whole when left as shown', async () => {
    const long = `Roadmap ${x(193)}`;
    expect(long).toHaveLength(201);
    await setProjectName(projectId, long);
    const { call, view } = await formFor(`project edit ${projectId}`);
    expect(call.reply).toMatchObject({ ok: true });
    const name = view.blocks.find((b) => b.block_id === PROJECT_BLOCK.name);
    expect(name?.element?.initial_value).toBe(long.slice(0, 200));
    expect(name?.hint?.text).toContain('Leave it as it is to keep the whole name');
    const res = await h.slack.viewSubmission({
      callbackId: VIEW.projectEdit,
      privateMetadata: view.private_metadata,
      values: stateFor(view, {}),
    });
    expect(res.status).toBe(200);
    await h.waitFor(
      () => h.fake.responses.length > 0 || h.fake.callsOf('chat.postMessage').length > 0,
    );
    expect((await h.work.getProjectDetails(projectId)).Name).toBe(long);
  });

  it('edits a task with a name longer than the field without writing the cut name back', async () => {
    const long = `Migrate ${x(600)}`;
    const task = await h.work.createTask({ projectId, name: 'Short for now' });
    sql(h.service.db, 'UPDATE tasks SET name = ? WHERE id = ?').run(long, task.taskId);
    forgetTask(h.service.db, task.taskId);
    const { call, view } = await formFor(`edit ${task.taskId}`);
    expect(call.reply).toMatchObject({ ok: true });
    const res = await h.slack.viewSubmission({
      callbackId: VIEW.taskEdit,
      privateMetadata: view.private_metadata,
      values: stateFor(view, {}),
    });
    expect(JSON.stringify(res.json ?? {})).toContain('Nothing was changed');
    expect((await h.work.getTask(task.taskId)).taskName).toBe(long);
  });
});
