/**
 * The three shortcuts through signed payloads: "Create task from message" (form prefilled
 * with the first line, text + permalink, the message's files), "Add to task as comment"
 * (task id checked under the field, text + permalink posted), and the global "New task".
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMENT_ACTION, COMMENT_BLOCK } from '../../../src/slack/tasks/comment/comment-modals.js';
import { SHORTCUT, VIEW } from '../../../src/slack/ui/block-ids.js';
import { NOT_CONNECTED } from '../../../src/slack/ui/error-text.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { textValues } from '../../support/slack-requests.js';
import {
  answeredView,
  errorsOf,
  findTask,
  inputWith,
  linkChannel,
  serviceView,
  shown,
  stateFor,
  type ViewJson,
  viewOf,
} from './helpers.js';

let h: Harness;
let website: string;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
});
afterAll(() => h?.stop());
beforeEach(async () => {
  h.fake.reset();
  await linkChannel(h, 0);
});

const MESSAGE_TS = '1700000000.000300';
const PERMALINK = `https://fake.slack.test/archives/C_GENERAL/p${MESSAGE_TS.replace('.', '')}`;

/** The form a shortcut's loading view turned into. */
async function formAfter(triggerId: string | undefined): Promise<ViewJson> {
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === triggerId);
  expect(viewOf(open).callback_id).toBe(VIEW.loading);
  const id = (await answeredView(h, open)).id;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  return { ...viewOf(update), id };
}

describe('Create task from message', () => {
  it('prefills name, text + permalink and files, and creates the task with them', async () => {
    h.fake.files.set('F_LOG', {
      id: 'F_LOG',
      name: 'console.log',
      filetype: 'text',
      size: 3 * 1024 * 1024,
      url_private: 'https://files.slack.test/F_LOG/console.log',
    });
    const res = await h.slack.messageShortcut(SHORTCUT.createTaskFromMessage, {
      ts: MESSAGE_TS,
      text: 'Login button broken on Safari\nSteps: open <https://example.com/login|the page> and click.',
      files: [
        {
          id: 'F_SHOT',
          name: 'shot.png',
          filetype: 'png',
          size: 2048,
          url_private: 'https://files.slack.test/F_SHOT/shot.png',
        },
        // Slack sometimes sends only the id: the file is looked up.
        { id: 'F_LOG', file_access: 'check_file_info' },
      ],
    });
    expect(res.status).toBe(200);
    const form = await formAfter(res.triggerId);
    expect(inputWith(form, 'task_name_input')?.element?.initial_value).toBe(
      'Login button broken on Safari',
    );
    expect(inputWith(form, 'task_description_input')?.element?.initial_value).toBe(
      `Login button broken on Safari\nSteps: open the page and click.\n\n${PERMALINK}`,
    );
    expect(shown(form.blocks)).toContain('Attached from the message: shot.png and console.log');

    const submitted = await h.slack.viewSubmission({
      callbackId: form.callback_id!,
      id: form.id,
      privateMetadata: form.private_metadata,
      values: stateFor(form, {}),
    });
    expect(submitted.json?.response_action).toBeUndefined();
    const task = await findTask(h, website, 'Login button broken on Safari');
    expect(task?.description).toContain(PERMALINK);
    const { updated } = await serviceView(h, task!.taskId);
    expect(updated.Files?.map((f) => [f.name, f.size, f.href])).toEqual([
      ['shot.png', '2.00 KB', 'https://files.slack.test/F_SHOT/shot.png'],
      ['console.log', '3.00 MB', 'https://files.slack.test/F_LOG/console.log'],
    ]);
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === h.users.alice.id &&
        /created \*#\d+ Login button broken on Safari\*/.test(shown(c.body)),
    );
  });

  it('cuts a long first line to 100 characters', async () => {
    const res = await h.slack.messageShortcut(SHORTCUT.createTaskFromMessage, {
      ts: MESSAGE_TS,
      text: `${'word '.repeat(40)}\nsecond line`,
    });
    const form = await formAfter(res.triggerId);
    const name = inputWith(form, 'task_name_input')?.element?.initial_value ?? '';
    expect(name.length).toBe(100);
    expect(name.endsWith('…')).toBe(true);
  });
});

/** The state Slack sends: the picker's chosen option (its value is the task id). */
const values = (taskId: string, text = 'The client approved the design.') => ({
  ...textValues({ [COMMENT_BLOCK.text]: { [COMMENT_ACTION.text]: text } }),
  [COMMENT_BLOCK.taskId]: {
    [COMMENT_ACTION.taskId]: {
      type: 'external_select',
      selected_option: taskId ? { text: { type: 'plain_text', text: 'x' }, value: taskId } : null,
    },
  },
});

describe('Add to task as comment', () => {
  async function openCommentModal(userId = h.users.alice.id) {
    const res = await h.slack.messageShortcut(
      SHORTCUT.addCommentFromMessage,
      { ts: MESSAGE_TS, text: 'The client approved the design.' },
      { userId },
    );
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    return { res, view: viewOf(open) };
  }

  it('asks for the task id and refuses bad or unknown ones under the field', async () => {
    const { view } = await openCommentModal();
    expect(view.callback_id).toBe(VIEW.commentFromMessage);
    expect(shown(view.blocks)).toContain('"initial_value":"The client approved the design."');
    const submit = (taskId: string) =>
      h.slack.viewSubmission({
        callbackId: VIEW.commentFromMessage,
        privateMetadata: view.private_metadata,
        values: values(taskId),
      });
    const short = await submit('abc');
    expect(errorsOf(short)[COMMENT_BLOCK.taskId]).toBe(
      '`abc` is too short to be a task id: ids are 24 characters, as shown on task cards.',
    );
    const unknown = await submit('ffffffffffffffffffffffff');
    expect(errorsOf(unknown)[COMMENT_BLOCK.taskId]).toBe(
      'There is no task ffffffffffffffffffffffff in the connected workspace. Check the id (it is shown on task cards).',
    );
  });

  it('posts the text and the permalink, naming a Slack author who is not the key owner', async () => {
    const bob = h.seed.users.find((u) => u.email === 'bob@example.com')!.id;
    const { taskId } = await h.work.createTask({
      projectId: website,
      name: 'Design sign-off',
      taskUsers: [bob],
    });
    const { res, view } = await openCommentModal(h.users.dan.id);
    const sent = await h.slack.viewSubmission(
      {
        callbackId: VIEW.commentFromMessage,
        privateMetadata: view.private_metadata,
        values: values(taskId),
      },
      { userId: h.users.dan.id },
    );
    expect(sent.status).toBe(200);
    expect(sent.text).toBe('');
    expect((await h.replyTo(res)).text).toBe(
      'Added the message as a comment on *Design sign-off*.',
    );
    const { updated } = await serviceView(h, taskId);
    expect(updated.Comments?.filter((c) => c.Type === 1).map((c) => c.Comment)).toEqual([
      `The client approved the design.\n\n${PERMALINK}\n\n— Dan Diaz (via Slack)`,
    ]);
    // The assignee is told, the comment quoted; the person who ran the shortcut is not.
    const dm = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === h.users.bob.id && String(c.body.text).includes('commented on'),
    );
    expect(dm.body.text).toContain(
      '<@U_DAN> commented on *Design sign-off*: The client approved the design.',
    );
    await h.worklink.parts.activity.idle();
    expect(h.fake.callsOf('chat.postMessage').some((c) => c.body.channel === h.users.dan.id)).toBe(
      false,
    );
  });
});

describe('Add to task as comment: who wrote it', () => {
  async function commentFrom(message: Record<string, unknown>, runner: string) {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Attribution' });
    const res = await h.slack.messageShortcut(
      SHORTCUT.addCommentFromMessage,
      { ts: MESSAGE_TS, text: 'Ship it on Friday.', ...message },
      { userId: runner },
    );
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    await h.slack.viewSubmission(
      {
        callbackId: VIEW.commentFromMessage,
        privateMetadata: viewOf(open).private_metadata,
        values: values(taskId, 'Ship it on Friday.'),
      },
      { userId: runner },
    );
    await h.replyTo(res);
    const { updated } = await serviceView(h, taskId);
    return updated.Comments?.filter((c) => c.Type === 1).map((c) => c.Comment);
  }

  it('names the message’s author, not the person who ran the shortcut', async () => {
    expect(await commentFrom({ user: h.users.bob.id }, h.users.alice.id)).toEqual([
      `Ship it on Friday.\n\n${PERMALINK}\n\n— Bob Brown (via Slack, added by Alice Adams)`,
    ]);
  });

  it('names an app by its name when an app wrote the message', async () => {
    const comments = await commentFrom(
      { user: undefined, bot_id: 'B0DEPLOY', bot_profile: { name: 'Deploy Bot' } },
      h.users.carol.id,
    );
    expect(comments?.[0]).toMatch(/\n\n— Deploy Bot \(via Slack, added by Carol .+\)$/);
  });
});

describe('New task (global shortcut)', () => {
  it('opens the create form with the most recently seen project', async () => {
    const res = await h.slack.globalShortcut(SHORTCUT.newTask);
    expect(res.status).toBe(200);
    const form = await formAfter(res.triggerId);
    expect(form.callback_id).toBe(VIEW.taskCreate);
    const recent = (await h.worklink.store.knownProjects.list(h.teamId, 1))[0]!.projectId;
    expect(inputWith(form, 'task_form_project')?.element?.initial_option?.value).toBe(recent);
    expect(JSON.parse(form.private_metadata!).channelId).toBeUndefined();
  });

  it('says “not connected” by DM before connecting', async () => {
    await h.worklink.store.forgetTeam(h.teamId);
    try {
      await h.slack.globalShortcut(SHORTCUT.newTask, { userId: h.users.bob.id });
      const dm = await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_BOB');
      expect(dm.body.text).toBe(NOT_CONNECTED);
      expect(h.fake.callsOf('views.open')).toEqual([]);
    } finally {
      await h.connect();
    }
  });
});
