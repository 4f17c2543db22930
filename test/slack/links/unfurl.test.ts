/**
 * Link previews through signed Events API requests against the embedded service: a task link
 * → chat.unfurl with a task Work Object (name, number, status) and fallback blocks; the side
 * panel → entity.presentDetails with the whole task; unknown tasks and other workspaces'
 * links → nothing; the admin's choice (everywhere | linked | off) honoured.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoWorkspace } from '../../../src/service/index.js';
import { apiKeyHash, pageUrl } from '../../../src/workapi/page-links.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, startHarness } from '../../support/harness.js';

let h: Harness;
let website: string;
let origin: string;
let taskId: string;
let number: number;
let ts = 1_700_000_100;

const linkTo = (id: string, key = h.seed.apiKey, kind: 'task' | 'project' = 'task') =>
  pageUrl(origin, kind, id, apiKeyHash(key));

beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  origin = new URL(h.service.baseUrl).origin;
  const task = (await h.work.createTask({
    projectId: website,
    name: 'Fix the login page',
    description: `Steps to reproduce: ${'open the page and wait. '.repeat(40)}THE END`,
    taskUsers: [h.seed.users[1]!.id],
    dueDate: '2026-12-01',
    priority: 2,
  }))!;
  taskId = task.taskId;
  number = task.taskNumber!;
  // The app learns the workspace key as it makes its client (any command does).
  await h.replyTo(await h.slack.slashCommand('status'));
});
afterAll(() => h?.stop());
beforeEach(async () => {
  await h.worklink.store.unfurlSettings.set(h.teamId, 'everywhere', 'U_ALICE');
});

const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

async function share(url: string, channel = 'C_GENERAL') {
  const messageTs = `${ts++}.000100`;
  const res = await h.slack.event({
    type: 'link_shared',
    channel,
    user: h.users.alice.id,
    message_ts: messageTs,
    links: [{ domain: new URL(url).host, url }],
    source: 'conversations_history',
  });
  expect(res.status).toBe(200);
  return messageTs;
}

/** The chat.unfurl call for this message, or the log line saying there is none. */
async function outcome(messageTs: string): Promise<RecordedCall | 'none'> {
  return h.waitFor(() => {
    const call = h.fake.calls.find((c) => c.method === 'chat.unfurl' && c.body.ts === messageTs);
    if (call) return call;
    return h.logs.some((l) => l.includes(`Link previews: none for message ${messageTs}`))
      ? 'none'
      : undefined;
  });
}

describe('link_shared', () => {
  it('unfurls a task link to a task Work Object with name, number and status, plus blocks', async () => {
    const url = linkTo(taskId);
    const call = await outcome(await share(url));
    expect(call).not.toBe('none');
    const body = (call as RecordedCall).body;
    const [entity] = json(body.metadata).entities;
    expect(entity.entity_type).toBe('slack#/entities/task');
    expect(entity.app_unfurl_url).toBe(url);
    expect(entity.external_ref).toEqual({ id: taskId, type: 'task' });
    expect(entity.entity_payload.attributes.title.text).toBe('Fix the login page');
    expect(entity.entity_payload.attributes.display_id).toBe(`#${number}`);
    // Get task says done or not; the index's status name when it knows one, else Open.
    expect(entity.entity_payload.fields.status.value).toBe('Open');
    expect(entity.entity_payload.fields.due_date).toEqual({
      type: 'slack#/types/date',
      value: '2026-12-01',
    });
    expect(entity.entity_payload.fields.priority.value).toBe('High');
    expect(entity.entity_payload.fields.assignee).toEqual({
      type: 'slack#/types/user',
      user: { user_id: h.users.bob.id },
    });
    // A preview cuts the description; the side panel has it whole.
    expect(entity.entity_payload.fields.description.value).not.toContain('THE END');
    expect(
      entity.entity_payload.actions.primary_actions.map((a: { text: string }) => a.text),
    ).toEqual(['Mark complete', 'Comment']);
    const blocks = JSON.stringify(json(body.unfurls)[url].blocks);
    expect(blocks).toContain(`#${number} Fix the login page`);
  });

  it('the side panel request gets the whole task', async () => {
    const url = linkTo(taskId);
    const res = await h.slack.event({
      type: 'entity_details_requested',
      user: h.users.bob.id,
      trigger_id: '123.456.abc',
      link: { url, domain: new URL(url).host },
      entity_url: url,
      app_unfurl_url: url,
      external_ref: { id: taskId, type: 'task' },
      user_locale: 'en-US',
      channel: 'C_GENERAL',
    });
    expect(res.status).toBe(200);
    const call = await h.fake.waitForCall('entity.presentDetails');
    expect(call.body.trigger_id).toBe('123.456.abc');
    const entity = json(call.body.metadata);
    expect(entity.entity_payload.attributes.title.text).toBe('Fix the login page');
    expect(entity.entity_payload.fields.description.value).toContain('THE END');
    expect(entity.entity_payload.custom_fields).toContainEqual(
      expect.objectContaining({ key: 'project', value: 'Website relaunch' }),
    );
  });

  it('a link to an unknown task, or signed by another workspace, unfurls to nothing', async () => {
    expect(await outcome(await share(linkTo('f'.repeat(24))))).toBe('none');
    const other = seedDemoWorkspace(h.service.db);
    const foreign = (await h.work.createTask({ projectId: website, name: 'Foreign' }))!;
    expect(await outcome(await share(linkTo(foreign.taskId, other.apiKey)))).toBe('none');
    // A link whose signature was changed.
    expect(await outcome(await share(`${linkTo(taskId).slice(0, -4)}AAAA`))).toBe('none');
  });

  it('a project link unfurls to the project’s summary', async () => {
    const url = linkTo(website, h.seed.apiKey, 'project');
    const call = await outcome(await share(url));
    expect(call).not.toBe('none');
    const blocks = JSON.stringify(json((call as RecordedCall).body.unfurls)[url].blocks);
    expect(blocks).toContain('Website relaunch');
    expect(blocks).toMatch(/\d+ open tasks/);
  });
});

describe('the admin setting', () => {
  it('only admins change it; off → nothing; linked → only in the project’s channels', async () => {
    const refused = await h.replyTo(
      await h.slack.slashCommand('previews off', { userId: h.users.bob.id }),
    );
    expect(refused.text).toMatch(/Only workspace admins/);
    expect(await h.worklink.store.unfurlSettings.get(h.teamId)).toBe('everywhere');

    const off = await h.replyTo(await h.slack.slashCommand('previews off'));
    expect(off.text).toMatch(/^Done\. Links to tasks and projects show no preview/);
    expect(await outcome(await share(linkTo(taskId)))).toBe('none');

    await h.replyTo(await h.slack.slashCommand('previews linked'));
    expect(await outcome(await share(linkTo(taskId), 'C_ELSEWHERE'))).toBe('none');
    await h.worklink.store.channelProjects.link(h.teamId, 'C_WEB', website, h.users.alice.id);
    expect(await outcome(await share(linkTo(taskId), 'C_WEB'))).not.toBe('none');
  });
});
