/**
 * "Already there?": the new-task form names up to 3 open tasks of its project with similar
 * names, from the task index — when opened with a title, and as the title is typed (the
 * signed dispatch_action of the title input updates the form in place).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_ACTION } from '../../../src/slack/tasks/form/task-form-fields.js';
import { VIEW } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { answeredView, linkChannel, shown, type ViewJson, viewOf } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
  await h.worklink.store.knownProjects.remember(
    h.teamId,
    h.seed.projects[0]!.projectId,
    'Website relaunch',
  );
  await linkChannel(h, 0);
  await h.worklink.parts.indexRefresh.runTeam(h.teamId);
});
afterAll(() => h?.stop());

async function newForm(title: string): Promise<ViewJson & { id: string }> {
  const res = await h.slack.slashCommand(`new ${title}`);
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  const id = (await answeredView(h, open)).id!;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  const view = viewOf(update);
  expect(view.callback_id).toBe(VIEW.taskCreate);
  return { ...view, id };
}

describe('the similar-task hint', () => {
  it('shows open tasks of the project with similar names when the form opens with a title', async () => {
    const form = await newForm('Draft a new sitemap');
    expect(shown(form.blocks)).toContain('Already there? #1 Draft the sitemap');
  });

  it('updates as the title is typed, and goes away when nothing is similar', async () => {
    const form = await newForm('');
    expect(shown(form.blocks)).not.toContain('Already there?');
    const type = async (value: string, blocks = form.blocks) => {
      h.fake.reset();
      await h.slack.blockAction(
        { actionId: TASK_ACTION.name, blockId: 'task_name', value, type: 'plain_text_input' },
        {
          view: {
            id: form.id,
            hash: 'h1',
            callback_id: form.callback_id,
            private_metadata: form.private_metadata,
            title: { type: 'plain_text', text: 'New task' },
            blocks,
          },
        },
      );
      return h.fake.waitForCall('views.update', (c) => c.body.view_id === form.id, 3000);
    };
    const typed = await type('home page');
    const hinted = viewOf(typed);
    expect(shown(hinted.blocks)).toContain('Already there? #2 Design the home page');
    // Only the hint is new: every input is still there, in the same place.
    const inputs = (v: ViewJson) =>
      v.blocks.filter((b) => b.type === 'input').map((b) => b.block_id);
    expect(inputs(hinted)).toEqual(inputs(form));
    expect(typed.body.hash).toBe('h1');
    const cleared = viewOf(await type('zebra crossing', hinted.blocks));
    expect(shown(cleared.blocks)).not.toContain('Already there?');
  });
});
