/**
 * Card and list buttons through signed block_actions: Mark complete (the card is replaced
 * and shows ✅), Comment (modal → authored comment), Edit (the edit form), Open, and list
 * paging over 25 tasks with bounded concurrency.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMMENT_ACTION, COMMENT_BLOCK } from '../../../src/slack/tasks/comment/comment-modals.js';
import { LIST_NEXT, LIST_PREV } from '../../../src/slack/tasks/list/task-list-page.js';
import { ACTION, VIEW } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { textValues } from '../../support/slack-requests.js';
import { answeredView, serviceView, shown, viewOf } from './helpers.js';

let h: Harness;
let website: string;

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

const press = (
  actionId: string,
  value: string,
  opts: { userId?: string; channelId?: string } = {},
) => h.slack.blockAction({ actionId, value }, opts);

describe('Mark complete', () => {
  it('sets the done status and replaces the card with one showing ✅', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Press to finish' });
    const res = await press(ACTION.taskComplete, taskId, { channelId: 'D_BOB', userId: 'U_BOB' });
    expect(res.status).toBe(200);
    const reply = await h.replyTo(res);
    expect(reply.replace_original).toBe(true);
    const card = shown(reply.blocks);
    expect(card).toContain('✅ *Press to finish*');
    expect(card).toContain('✅ Done');
    expect(card).toContain('Marked complete by <@U_BOB>.');
    expect(card).not.toContain(ACTION.taskComplete);
    expect(card).toContain(ACTION.taskComment);
    const { updated } = await serviceView(h, taskId);
    expect(updated.Status).toBe(true);
  });

  it('leaves a done task alone and says so', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Done before' });
    await h.replyTo(await press(ACTION.taskComplete, taskId));
    const again = await h.replyTo(await press(ACTION.taskComplete, taskId));
    expect(shown(again.blocks)).toContain('Already done.');
  });

  it('answers a bad id in one sentence', async () => {
    const reply = await h.replyTo(await press(ACTION.taskComplete, 'ffffffffffffffffffffffff'));
    expect(reply.text).toContain(
      'Could not mark the task complete: there is no task `ffffffffffffffffffffffff`',
    );
  });
});

describe('Comment', () => {
  it('opens the comment modal and posts the comment with its Slack author', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Talk about me' });
    const res = await press(ACTION.taskComment, taskId, { userId: 'U_BOB' });
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const view = viewOf(open);
    expect(view.callback_id).toBe(VIEW.taskComment);

    const empty = await h.slack.viewSubmission(
      {
        callbackId: VIEW.taskComment,
        privateMetadata: view.private_metadata,
        values: textValues({ [COMMENT_BLOCK.text]: { [COMMENT_ACTION.text]: '  ' } }),
      },
      { userId: 'U_BOB' },
    );
    expect(empty.json).toEqual({
      response_action: 'errors',
      errors: { [COMMENT_BLOCK.text]: 'Write a comment to post.' },
    });

    const sent = await h.slack.viewSubmission(
      {
        callbackId: VIEW.taskComment,
        privateMetadata: view.private_metadata,
        values: textValues({ [COMMENT_BLOCK.text]: { [COMMENT_ACTION.text]: 'Nice work' } }),
      },
      { userId: 'U_BOB' },
    );
    expect(sent.status).toBe(200);
    expect(sent.text).toBe('');
    // The confirmation goes to the card's response_url.
    const replies = await h.waitFor(() => {
      const all = h.repliesTo(res);
      return all.length > 0 && all;
    });
    expect(replies[0]?.text).toBe('Added your comment to *Talk about me*.');
    const { updated } = await serviceView(h, taskId);
    expect(updated.Comments?.filter((c) => c.Type === 1).map((c) => c.Comment)).toEqual([
      'Nice work\n\n— Bob Brown (via Slack)',
    ]);
  });
});

describe('Edit and Open', () => {
  it('Edit opens the loading view, then the prefilled edit form', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Edit me' });
    const res = await press(ACTION.taskEdit, taskId);
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    expect(viewOf(open).callback_id).toBe(VIEW.loading);
    const openedId = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === openedId);
    expect(viewOf(update).callback_id).toBe(VIEW.taskEdit);
    expect(shown(viewOf(update).blocks)).toContain('"initial_value":"Edit me"');
  });

  it('Open shows the task card', async () => {
    const { taskId } = await h.work.createTask({ projectId: website, name: 'Open me' });
    const reply = await h.replyTo(await press(ACTION.taskOpen, taskId));
    expect(reply.replace_original).toBeUndefined();
    expect(shown(reply.blocks)).toContain('*Open me*');
  });
});

describe('list paging', () => {
  it('shows 25 tasks as 20 + 5 with Next and Previous, reading at most 8 at a time', async () => {
    const project = await h.work.createProject({ projectName: 'Paging project' });
    const projectId = project.projectId;
    for (let i = 1; i <= 25; i++) {
      await h.work.createTask({ projectId, name: `Paged task ${String(i).padStart(2, '0')}` });
    }
    const client = h.worklink.deps.workClients.for(
      (await h.worklink.store.connections.get(h.teamId))!,
    );
    const original = client.getTask.bind(client);
    let inFlight = 0;
    let most = 0;
    const spy = vi.spyOn(client, 'getTask').mockImplementation(async (id: string) => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await original(id);
      } finally {
        inFlight--;
      }
    });
    try {
      const res = await h.slack.slashCommand(`list all ${projectId}`);
      const first = await h.replyTo(res);
      expect(first.text).toBe('Tasks in Paging project (1–20 of 25)');
      const page1 = shown(first.blocks);
      expect(page1).toContain('Paged task 01');
      expect(page1).toContain('Paged task 20');
      expect(page1).not.toContain('Paged task 21');
      expect(page1).toContain(LIST_NEXT);
      expect(page1).not.toContain(LIST_PREV);
      expect(spy).toHaveBeenCalledTimes(20);
      expect(most).toBeLessThanOrEqual(8);
      expect(most).toBeGreaterThan(1);

      const nav = (
        first.blocks as { type: string; elements?: { action_id: string; value: string }[] }[]
      )
        .find((b) => b.type === 'actions')!
        .elements!.find((e) => e.action_id === LIST_NEXT)!;
      const next = await h.replyTo(
        await h.slack.blockAction({ actionId: LIST_NEXT, value: nav.value }),
      );
      expect(next.replace_original).toBe(true);
      expect(next.text).toBe('Tasks in Paging project (21–25 of 25)');
      const page2 = shown(next.blocks);
      expect(page2).toContain('Paged task 25');
      expect(page2).not.toContain('Paged task 20');
      expect(page2).toContain(LIST_PREV);
      expect(page2).not.toContain(LIST_NEXT);

      const prevValue = JSON.stringify({ projectId, filter: 'all', page: 0 });
      const back = await h.replyTo(
        await h.slack.blockAction({ actionId: LIST_PREV, value: prevValue }),
      );
      expect(back.text).toBe('Tasks in Paging project (1–20 of 25)');
    } finally {
      spy.mockRestore();
    }
  });

  it('says so for a stale or foreign paging value', async () => {
    const reply = await h.replyTo(
      await h.slack.blockAction({ actionId: LIST_NEXT, value: 'junk' }),
    );
    expect(reply.text).toBe('That list button is out of date; run `/work list` again.');
  });
});
