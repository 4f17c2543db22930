/**
 * Payloads with types Slack never sends (a number as an input's `value`, `null` among
 * `files`, a view without `state`) still get an answer, at once: the readers see plain
 * values, and whatever still throws is answered by the app's global guard instead of Bolt's
 * 404 three seconds later.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  API_KEY_ACTION,
  API_KEY_BLOCK,
  CONNECT_CALLBACK_ID,
} from '../../src/slack/connection/connect-modal.js';
import { VIEW } from '../../src/slack/ui/block-ids.js';
import { type Harness, startHarness } from '../support/harness.js';
import {
  answeredView,
  findTask,
  linkChannel,
  stateFor,
  type ViewJson,
  viewOf,
} from './tasks/helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());
beforeEach(async () => {
  h.fake.reset();
  await linkChannel(h, 0);
});

it('creates a task from a form whose name is a number and whose files hold a null', async () => {
  const res = await h.slack.slashCommand('new');
  const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
  const id = (await answeredView(h, open)).id;
  const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
  const view = { ...viewOf(update), id } as ViewJson;
  const values = stateFor(view, { task_name_input: 'placeholder' });
  for (const block of Object.values(values)) {
    if (block.task_name_input) block.task_name_input = { type: 'plain_text_input', value: 20261 };
    if (block.task_files_input) block.task_files_input = { type: 'file_input', files: [null] };
  }
  const submitted = await h.slack.viewSubmission({
    callbackId: view.callback_id!,
    id: view.id,
    privateMetadata: view.private_metadata,
    blocks: view.blocks,
    values,
  });
  expect(submitted.status).toBe(200);
  expect(submitted.json?.response_action).not.toBe('errors');
  expect(await findTask(h, h.seed.projects[0]!.projectId, '20261')).toBeDefined();
});

it('answers a connect form whose key is a number with the problem under the field', async () => {
  const res = await h.slack.viewSubmission({
    callbackId: CONNECT_CALLBACK_ID,
    values: { [API_KEY_BLOCK]: { [API_KEY_ACTION]: { type: 'plain_text_input', value: 12345 } } },
  });
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ response_action: 'errors' });
});

it('answers a modal whose listener still throws with a notice, not a closed connection', async () => {
  const res = await h.slack.sendPayload({
    type: 'view_submission',
    team: { id: h.teamId, domain: 'test' },
    user: { id: h.users.alice.id, name: 'alice', team_id: h.teamId },
    api_app_id: 'A_TEST',
    trigger_id: 'trig.hostile',
    view: { id: 'V_HOSTILE', type: 'modal', callback_id: VIEW.taskCreate, private_metadata: '' },
  });
  expect(res.status).toBe(200);
  expect(res.json).toMatchObject({ response_action: 'update' });
  expect(JSON.stringify(res.json)).toContain('something went wrong on Worklink’s side');
  await h.waitFor(() => h.logs.some((l) => l.includes('Unhandled error in a Slack listener')));
});
