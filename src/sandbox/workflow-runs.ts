// The page's "Workflows" panel, server side: each custom step the app's manifest declares can
// be run with inputs typed on the page. Running one does what Slack does when a workflow
// reaches the step — start an execution with its own token, send the app a signed
// `function_executed` event (workflow-functions.ts) — and waits for the app to end it with
// functions.completeSuccess or functions.completeError, whose outputs or error the page shows.

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { StepRunAnswer } from './page/types.js';
import { deliverSigned } from './signer.js';
import type { SandboxState } from './state.js';
import {
  type FunctionExecutions,
  functionExecutedBody,
  type StepDefinition,
} from './workflow-functions.js';

export interface WorkflowRunDeps {
  state: SandboxState;
  steps: () => readonly StepDefinition[];
  executions: FunctionExecutions;
  signingSecret: string;
  verificationToken: string;
  appUrl: () => string | undefined;
  /** How long the page waits for the app to end a step (the app's own limit is 60 s). */
  waitMs?: number;
}

/** What the page's Workflows panel gets back (typed once, for the page's check too). */
export type WorkflowRunResult = StepRunAnswer;

const InputValue = z.union([z.string().max(20_000), z.array(z.string().max(200)).max(100)]);
const RunBody = z.object({
  user: z.string().min(1).max(255),
  callbackId: z.string().min(1).max(255),
  inputs: z.record(z.string().max(255), InputValue),
});

export function workflowRoutes(app: FastifyInstance, deps: WorkflowRunDeps): void {
  app.get('/sandbox/workflows', async (_req, reply) =>
    reply.header('cache-control', 'no-store').send({ steps: deps.steps() }),
  );
  app.post('/sandbox/workflows/run', async (req, reply) => {
    const parsed = RunBody.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return reply
        .code(400)
        .send({ ok: false, problem: `${issue?.path.join('.') || 'body'}: ${issue?.message}` });
    }
    return reply.send(await runStep(deps, parsed.data));
  });
}

/** Runs one step as Slack would and waits for the app to end it. */
export async function runStep(
  deps: WorkflowRunDeps,
  run: z.infer<typeof RunBody>,
): Promise<WorkflowRunResult> {
  const step = deps.steps().find((s) => s.callbackId === run.callbackId);
  if (!step) return { ok: false, problem: `The app declares no step ${run.callbackId}.` };
  const url = deps.appUrl();
  if (!url) return { ok: false, problem: 'No app is connected to the sandbox yet.' };
  // Unset optional fields are left out, as Workflow Builder leaves them out.
  const inputs: Record<string, unknown> = {};
  for (const p of step.inputs) {
    const v = run.inputs[p.name];
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    inputs[p.name] = p.type === 'array' && typeof v === 'string' ? [v] : v;
  }
  const missing = step.inputs.find((p) => p.isRequired && inputs[p.name] === undefined);
  if (missing) return { ok: false, problem: `“${missing.title}” is required.` };

  const execution = deps.executions.start(step.callbackId, inputs);
  const { state } = deps;
  state.note('info', `Workflow step “${step.title}” started (${execution.id}) by ${run.user}.`);
  const delivery = await deliverSigned({
    url,
    signingSecret: deps.signingSecret,
    kind: 'event',
    data: functionExecutedBody(step, execution, {
      teamId: state.team.id,
      appId: state.bot.appId,
      authorizedUserId: state.bot.botUserId,
      verificationToken: deps.verificationToken,
    }),
  });
  if (delivery.failure || delivery.status < 200 || delivery.status >= 300) {
    const why = delivery.failure
      ? `${delivery.failure}: ${delivery.detail}`
      : `HTTP ${delivery.status}`;
    state.note('warn', `Workflow step “${step.title}”: the app did not take the event (${why}).`);
    return { ok: false, problem: `The app did not take the step's event (${why}).` };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = await Promise.race([
    deps.executions.ended(execution.id),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), deps.waitMs ?? 65_000);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!ended) {
    state.note('warn', `Workflow step “${step.title}” ${execution.id} was never ended by the app.`);
    return { ok: false, problem: 'The app never completed or failed the step.' };
  }
  state.note(
    ended.state === 'completed' ? 'info' : 'warn',
    `Workflow step “${step.title}” ${ended.state}${ended.error ? `: ${ended.error}` : ''}.`,
  );
  return ended.state === 'completed'
    ? { ok: true, state: 'completed', outputs: ended.outputs ?? {} }
    : { ok: true, state: 'failed', error: ended.error ?? '' };
}
