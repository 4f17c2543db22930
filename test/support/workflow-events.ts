/**
 * Workflow Builder custom steps for tests: the signed `function_executed` event Slack sends
 * when a workflow reaches one of Worklink's steps (built by the sandbox's copy of Slack's
 * documented payload, from manifest.yml's `functions`), and how the execution ended — the
 * fake Slack answers functions.completeSuccess / completeError and records each call.
 *
 *   const run = await runWorkflowStep(h, 'create_task', { project: id, title: 'Fix login' });
 *   run.ended.state;            // 'completed' | 'failed'
 *   run.ended.outputs?.task_id; // what complete() reported
 *   run.endCalls();             // completeSuccess + completeError calls for this execution
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  type FunctionExecution,
  functionExecutedBody,
  type StepDefinition,
  stepDefinitions,
} from '../../src/sandbox/workflow-functions.js';
import type { RecordedCall } from './fake-slack.js';
import type { AppHarness } from './harness.js';
import type { SlackResponse } from './slack-requests.js';

export const STEPS: StepDefinition[] = stepDefinitions(
  parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')),
);

export function stepDefinition(callbackId: string): StepDefinition {
  const step = STEPS.find((s) => s.callbackId === callbackId);
  if (!step) throw new Error(`manifest.yml has no function ${callbackId}`);
  return step;
}

export interface StepDelivery {
  teamId?: string;
  enterpriseId?: string;
  /** Deliver this execution (same id) again, e.g. Slack's retry. */
  executionId?: string;
  /** Same event_id as an earlier delivery (Slack's retry keeps it). */
  eventId?: string;
  /** Sent as `x-slack-retry-num` (with `x-slack-retry-reason: http_timeout`). */
  retryNum?: number;
}

export interface StepRun {
  res: SlackResponse;
  executionId: string;
  eventId: string;
  /** The execution as the fake Slack saw it end. */
  ended: FunctionExecution;
  /** functions.completeSuccess and functions.completeError calls for this execution. */
  endCalls(): RecordedCall[];
}

/** The event_callback body Slack sends for one execution of a step (see StepDelivery). */
export function stepEventBody(
  callbackId: string,
  inputs: Record<string, unknown>,
  d: StepDelivery & { teamId: string },
): { body: Record<string, unknown>; executionId: string; eventId: string } {
  const executionId = d.executionId ?? `Fx${randomBytes(5).toString('hex').toUpperCase()}`;
  const body = functionExecutedBody(
    stepDefinition(callbackId),
    {
      id: executionId,
      workflowExecutionId: `Wx${randomBytes(5).toString('hex').toUpperCase()}`,
      inputs,
      token: `xwfp-${randomBytes(12).toString('hex')}`,
    },
    {
      teamId: d.teamId,
      appId: 'A_WORKLINK',
      authorizedUserId: 'U_WORKLINK',
      ...(d.enterpriseId ? { enterpriseId: d.enterpriseId, isEnterpriseInstall: true } : {}),
    },
  );
  const eventId = d.eventId ?? String(body.event_id);
  body.event_id = eventId;
  return { body, executionId, eventId };
}

/** Slack's retry headers for a delivery with `retryNum`. */
export function retryHeaders(d: StepDelivery): Record<string, string> {
  return d.retryNum !== undefined
    ? { 'x-slack-retry-num': String(d.retryNum), 'x-slack-retry-reason': 'http_timeout' }
    : {};
}

/** Sends the event (signed) and returns once it is acked; see `runWorkflowStep`. */
export async function deliverStep(
  h: AppHarness,
  callbackId: string,
  inputs: Record<string, unknown>,
  d: StepDelivery = {},
): Promise<{ res: SlackResponse; executionId: string; eventId: string }> {
  const { body, executionId, eventId } = stepEventBody(callbackId, inputs, {
    ...d,
    teamId: d.teamId ?? h.teamId,
  });
  const res = await h.slack.send(JSON.stringify(body), 'application/json', {
    headers: retryHeaders(d),
  });
  return { res, executionId, eventId };
}

/** Runs a step through a signed event and waits until Slack was told how it ended. */
export async function runWorkflowStep(
  h: AppHarness,
  callbackId: string,
  inputs: Record<string, unknown>,
  d: StepDelivery = {},
): Promise<StepRun> {
  const sent = await deliverStep(h, callbackId, inputs, d);
  const ended = await endOf(h, sent.executionId);
  return { ...sent, ended, endCalls: () => endCalls(h, sent.executionId) };
}

/** The execution once it ended (fails the test after 20 s). */
export async function endOf(
  h: Pick<AppHarness, 'fake'>,
  executionId: string,
): Promise<FunctionExecution> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Step execution ${executionId} never ended (no complete/fail).`)),
      20_000,
    );
  });
  try {
    return await Promise.race([h.fake.executions.ended(executionId), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function endCalls(h: Pick<AppHarness, 'fake'>, executionId: string): RecordedCall[] {
  return h.fake.calls.filter(
    (c) =>
      (c.method === 'functions.completeSuccess' || c.method === 'functions.completeError') &&
      c.body.function_execution_id === executionId,
  );
}
