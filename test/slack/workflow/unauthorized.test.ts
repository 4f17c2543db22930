/**
 * A workflow step never hangs, even when Bolt cannot authorize its workspace (OAuth mode, no
 * installation for it): the execution is failed with its own token and a sentence saying
 * what the admin must do — once, also when Slack delivers the event again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, oauthMode, startHarness } from '../../support/harness.js';
import { deliverStep, endCalls, runWorkflowStep } from '../../support/workflow-events.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ configure: oauthMode });
});
afterAll(() => h?.stop());

it('fails the step of a workspace Worklink is not installed on', async () => {
  const run = await runWorkflowStep(
    h,
    'create_task',
    { project: 'Website', title: 'Never made' },
    { teamId: 'T_NOT_INSTALLED' },
  );
  expect(run.res.status).toBe(200);
  expect(run.ended.state).toBe('failed');
  expect(run.ended.error).toContain('Worklink is not installed for this Slack workspace');
  // The execution's own token ended it.
  expect(run.endCalls()[0]?.token).toMatch(/^xwfp-/);

  const again = await deliverStep(
    h,
    'create_task',
    { project: 'Website', title: 'Never made' },
    { teamId: 'T_NOT_INSTALLED', executionId: run.executionId, retryNum: 1 },
  );
  expect(again.res.status).toBe(200);
  await h.waitFor(
    () => h.logs.filter((l) => l.includes('Authorization of incoming event')).length >= 2,
  );
  expect(endCalls(h, run.executionId)).toHaveLength(1);
});
