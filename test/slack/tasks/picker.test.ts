/**
 * The type-ahead task picker of "Add to task as comment": an external_select whose options
 * the app answers (signed block_suggestion, as Slack sends while one types) from the task
 * index — words by prefix in any order, #number in the message's channel project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION, SHORTCUT } from '../../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../../support/harness.js';
import { linkChannel, viewOf } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
  const website = h.seed.projects[0]!.projectId;
  await h.worklink.store.knownProjects.remember(h.teamId, website, 'Website relaunch');
  await linkChannel(h, 0);
  await h.worklink.parts.indexRefresh.runTeam(h.teamId);
});
afterAll(() => h?.stop());

async function suggest(value: string, privateMetadata = '{}') {
  const res = await h.slack.sendPayload({
    type: 'block_suggestion',
    action_id: ACTION.taskPicker,
    block_id: 'comment_task',
    value,
    api_app_id: 'A_TEST',
    team: { id: h.teamId, domain: 'test' },
    user: { id: h.users.alice.id, team_id: h.teamId },
    container: { type: 'view', view_id: 'V1' },
    view: { id: 'V1', type: 'modal', callback_id: 'x', private_metadata: privateMetadata },
  });
  expect(res.status).toBe(200);
  return (res.json?.options ?? []) as { text: { text: string }; value: string }[];
}

describe('the task picker', () => {
  it('is what "Add to task as comment" asks with', async () => {
    const res = await h.slack.messageShortcut(SHORTCUT.addCommentFromMessage, {
      ts: '1700000000.000200',
      text: 'Looks done to me.',
    });
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const picker = viewOf(open).blocks.find((b) => b.element?.action_id === ACTION.taskPicker);
    expect(picker?.element?.type).toBe('external_select');
  });

  it('offers the tasks whose names have the typed words, numbered, with their project', async () => {
    const options = await suggest('home des');
    expect(options.map((o) => o.text.text)).toEqual(['#2 Design the home page · Website relaunch']);
    const task = await h.worklink.store.taskIndex.byNumber(
      h.teamId,
      h.seed.projects[0]!.projectId,
      2,
    );
    expect(options[0]!.value).toBe(task!.taskId);
  });

  it('finds #number in the project of the message’s channel, and nothing for junk', async () => {
    const options = await suggest('#3', JSON.stringify({ messageChannel: 'C_GENERAL' }));
    expect(options[0]?.text.text).toBe('#3 Set up the CMS · Website relaunch');
    expect(await suggest('"*) OR (')).toEqual([]);
    expect(await suggest('zebra')).toEqual([]);
  });
});
