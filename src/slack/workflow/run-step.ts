/**
 * How every custom step runs (Bolt's `app.function`): Bolt acks the `function_executed` event
 * at once (its default autoAcknowledge), then, here:
 *  1. the execution is claimed in the store by its `function_execution_id`, so a repeat of the
 *     event (Slack's retry with `x-slack-retry-num`, or the same execution delivered again)
 *     does nothing: `complete`/`fail` are called once per execution, by the first delivery;
 *  2. a context is built without a response_url — a step has nobody to reply to, so anything
 *     the shared code would say to a person is kept for the log, and the outcome goes to the
 *     step's outputs or its error;
 *  3. the person it acts for (the step's "run by"/author input) goes through the acting seam
 *     (their own key when they have one, else the workspace key, as the workspace's policy
 *     says), and the step's own code runs within STEP_DEADLINE_MS;
 *  4. exactly one of `complete({outputs})` / `fail({error})` is called, whatever happened, with
 *     an error that says what went wrong and what to do.
 */
import type { App } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { errMessage } from '../../error-message.js';
import { type Acting, actingFor } from '../context/acting.js';
import type { WorklinkDeps } from '../context/deps.js';
import { errorText } from '../context/error-replies.js';
import { settle, withinBudget } from '../context/submit-budget.js';
import { buildWorkContext, type ReplyMessage, type WorkContext } from '../context/work-context.js';
import { KEY_UNREADABLE, NOT_CONNECTED } from '../ui/error-text.js';
import { StepInputs } from './inputs.js';
import { STEP_TITLE, type StepId, type StepOutputs } from './steps.js';

/** Every step ends (complete or fail) within this, even when the service hangs. */
export const STEP_DEADLINE_MS = 60_000;
/** An execution id is remembered this long: Slack's retries come within minutes. */
export const EXECUTION_KEEP_MS = 24 * 3_600_000;
/** Slack shows the error to the workflow's people; keep it to a readable paragraph. */
const MAX_ERROR_CHARS = 1_000;

export interface StepRun {
  /** The request's context: its `reply` goes nowhere but the log. */
  ctx: WorkContext;
  /** Who the step acts as. */
  by: Acting;
  inputs: StepInputs;
  /** The task the step is about once known, so a failure can name it. */
  about?: string;
}

export type StepResult<S extends StepId> = { outputs: StepOutputs<S> } | { error: string };

export interface StepSpec<S extends StepId> {
  step: S;
  /** The input naming the Slack user the step acts for ("run_by", "author"). */
  actorInput: string;
  run(run: StepRun): Promise<StepResult<S>>;
}

/** What Bolt hands a function listener that this runner uses. */
interface FunctionArgs {
  event: { function_execution_id: string; inputs?: Record<string, unknown> };
  body: { team_id?: string; enterprise_id?: string };
  context: {
    teamId?: string;
    enterpriseId?: string;
    botToken?: string;
    isEnterpriseInstall?: boolean;
  };
  client: WebClient;
  complete(params: { outputs: Record<string, unknown> }): Promise<unknown>;
  fail(params: { error: string }): Promise<unknown>;
}

export function registerStep<S extends StepId>(app: App, deps: WorklinkDeps, spec: StepSpec<S>) {
  app.function(spec.step, async (args) => runStep(deps, spec, args));
}

/** Per running app (its deps): one client per bot token. */
const botClients = new WeakMap<WorklinkDeps, Map<string, WebClient>>();

/**
 * The Web API client the shared code gets: the bot token's. Bolt's own client in a step
 * carries the execution's `bot_access_token`, which ends with the execution — and the DMs,
 * look-ups and activity a step sets off may run after it (complete/fail still use Bolt's).
 */
function botClient(deps: WorklinkDeps, args: FunctionArgs): WebClient {
  const token = args.context.botToken;
  if (!token) return args.client;
  let clients = botClients.get(deps);
  if (!clients) {
    clients = new Map();
    botClients.set(deps, clients);
  }
  // An organisation-wide token's calls name the workspace (as Bolt's own clients do).
  const teamId = args.context.isEnterpriseInstall ? args.context.teamId : undefined;
  const key = teamId ? `${token}:${teamId}` : token;
  let client = clients.get(key);
  if (!client) {
    client = new WebClient(token, {
      slackApiUrl: deps.config.slackApiUrl,
      logger: deps.logger,
      retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 5_000 },
      timeout: 15_000,
      ...(teamId ? { teamId } : {}),
    });
    clients.set(key, client);
  }
  return client;
}

/** One execution, start to end; never throws, always ends the step (once). */
async function runStep<S extends StepId>(
  deps: WorklinkDeps,
  spec: StepSpec<S>,
  args: FunctionArgs,
): Promise<void> {
  const { logger } = deps;
  const executionId = args.event.function_execution_id;
  const title = STEP_TITLE[spec.step];
  const claimed = await settle(
    deps.store.seenRequests.claim(`fn:${executionId}`, Date.now() + EXECUTION_KEEP_MS),
  );
  if (claimed.ok && !claimed.value) {
    logger.info(`Step “${title}” ${executionId} was delivered again; it runs once.`);
    return;
  }
  let result: StepResult<S>;
  if (!claimed.ok) {
    logger.error(`Could not record step execution ${executionId}: ${errMessage(claimed.error)}`);
    result = {
      error: `Worklink could not record this run (its database did not answer), so it did nothing. Run the workflow again in a moment.`,
    };
  } else {
    result = await execute(deps, spec, args).catch((e: unknown) => {
      // Worklink's own failure (its database, a bug): still an answer, never a hang.
      logger.error(`Step “${title}” ${executionId} broke: ${errMessage(e)}`);
      return {
        error:
          'Worklink ran into an unexpected problem while running this step (its log says which). Check the task before running the workflow again.',
      };
    });
  }
  try {
    if ('outputs' in result) {
      await args.complete({ outputs: result.outputs });
      logger.info(`Step “${title}” ${executionId} completed.`);
    } else {
      const error = plainError(result.error);
      await args.fail({ error });
      logger.info(`Step “${title}” ${executionId} failed: ${error}`);
    }
  } catch (e) {
    logger.error(`Could not end step “${title}” ${executionId} in Slack: ${errMessage(e)}`);
  }
}

async function execute<S extends StepId>(
  deps: WorklinkDeps,
  spec: StepSpec<S>,
  args: FunctionArgs,
): Promise<StepResult<S>> {
  const inputs = new StepInputs(args.event.inputs);
  const ctx = await buildWorkContext(deps, {
    teamId: args.context.teamId ?? args.body.team_id ?? '',
    enterpriseId: args.context.enterpriseId ?? args.body.enterprise_id,
    userId: inputs.user(spec.actorInput) ?? '',
    slack: botClient(deps, args),
    // A step answers nobody: what the shared code would reply is only logged.
    respond: async (message: ReplyMessage) => {
      deps.logger.debug(`Step “${STEP_TITLE[spec.step]}” would have said: ${message.text}`);
    },
  });
  if (!ctx.connection) return { error: ctx.connectionUnreadable ? KEY_UNREADABLE : NOT_CONNECTED };
  let run: StepRun | undefined;
  const work = async (): Promise<StepResult<S>> => {
    const by = await actingFor(ctx);
    if ('refused' in by) return { error: by.refused };
    run = { ctx, by, inputs };
    return spec.run(run);
  };
  const outcome = await withinBudget(settle(work()), STEP_DEADLINE_MS);
  if (!outcome.inTime) {
    return {
      error: `The work-management service took longer than ${STEP_DEADLINE_MS / 1000} seconds, so Worklink stopped waiting. The result is unknown: check the task before running the workflow again.`,
    };
  }
  if (outcome.value.ok) return outcome.value.value;
  const wording = { action: stepAction(spec.step), id: run?.about };
  return { error: errorText(ctx, outcome.value.error, wording) };
}

function stepAction(step: StepId): string {
  switch (step) {
    case 'create_task':
      return 'create the task';
    case 'add_comment':
      return 'post the comment';
    case 'complete_task':
      return 'mark the task complete';
    case 'reopen_task':
      return 'reopen the task';
    case 'find_task':
      return 'look for the task';
  }
}

/**
 * Slack shows a step's error as plain words: mrkdwn emphasis and code marks go, Slack's
 * escapes are undone, and it is cut to a paragraph.
 */
export function plainError(text: string): string {
  const plain = text
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
  return plain.length > MAX_ERROR_CHARS ? `${plain.slice(0, MAX_ERROR_CHARS - 1)}…` : plain;
}
