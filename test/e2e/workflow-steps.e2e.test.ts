/**
 * A workflow step runs once per execution across instances: two Worklink processes on one
 * PostgreSQL database (`worklink start`, configured by the environment only) each get the
 * same `function_executed` execution — as when Slack re-sends an event that a load balancer
 * routes to the other instance — and the step creates one task and ends with exactly one
 * functions.completeSuccess.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SIGNING_SECRET, SLACK_USERS, TEAM_ID, waitFor } from '../support/harness.js';
import { type Instance, startInstance } from '../support/instances.js';
import { usePostgres } from '../support/postgres.js';
import { type ScaleFixture, startScaleFixture } from '../support/scale-fixture.js';
import { SlackRequests } from '../support/slack-requests.js';
import { SureWorkClient } from '../support/sure-work.js';
import { endCalls, endOf, retryHeaders, stepEventBody } from '../support/workflow-events.js';

const postgres = usePostgres();
const dataDir = mkdtempSync(join(tmpdir(), 'worklink-steps-e2e-'));
let fixture: ScaleFixture;
const instances: Instance[] = [];

beforeAll(async () => {
  const databaseUrl = await postgres.freshDatabase();
  fixture = await startScaleFixture({ dataDir, databaseUrl, people: 1 });
  for (let i = 0; i < 2; i++)
    instances.push(await startInstance(fixture.env({ LOG_LEVEL: 'info' })));
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await fixture?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('ends one execution delivered to two instances once, with one task', async () => {
  const website = fixture.seed.projects[0]!.projectId;
  const title = `Once across instances ${Date.now()}`;
  const inputs = { project: website, title, run_by: SLACK_USERS.alice.id };
  const first = stepEventBody('create_task', inputs, { teamId: TEAM_ID });
  // The same execution again, as a new delivery (its own event id) with Slack's retry header.
  const again = stepEventBody('create_task', inputs, {
    teamId: TEAM_ID,
    executionId: first.executionId,
  });
  const send = (instance: Instance, body: Record<string, unknown>, retryNum?: number) =>
    new SlackRequests({
      url: instance.eventsUrl,
      signingSecret: SIGNING_SECRET,
      fake: fixture.fake,
    }).send(JSON.stringify(body), 'application/json', { headers: retryHeaders({ retryNum }) });
  const [a, b] = instances as [Instance, Instance];
  const answers = await Promise.all([send(a, first.body), send(b, again.body, 1)]);
  expect(answers.map((r) => r.status)).toEqual([200, 200]);

  const ended = await endOf(fixture, first.executionId);
  expect(ended.state).toBe('completed');
  // Both instances have taken their delivery in before the count.
  await waitFor(() => instances.every((i) => i.output().includes(first.executionId)), {
    timeoutMs: 15_000,
  });
  expect(endCalls(fixture, first.executionId).map((c) => c.method)).toEqual([
    'functions.completeSuccess',
  ]);
  const work = new SureWorkClient({
    baseUrl: fixture.service.baseUrl,
    altUrl: fixture.service.altUrl,
    apiKey: fixture.seed.apiKey,
  });
  const made = (await work.listTasks({ projectId: website })).filter((t) => t.taskName === title);
  expect(made).toHaveLength(1);
}, 120_000);
