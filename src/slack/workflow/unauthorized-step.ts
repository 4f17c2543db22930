/**
 * A workflow step whose workspace Bolt cannot authorize (OAuth mode: no installation, or one
 * the current secrets key cannot open) never reaches its listener — yet the step must not
 * hang. The event carries the execution's own token, so from app.error the execution is
 * failed with a sentence saying what the admin must do. Started after Bolt's error path and
 * not awaited, so the event's ack is not held up; claimed like any run, so it ends once.
 */
import { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { errMessage } from '../../error-message.js';
import type { WorklinkDeps } from '../context/deps.js';
import { installUnreadable, installUnreadableText } from '../context/unreadable-installs.js';
import { EXECUTION_KEEP_MS, plainError } from './run-step.js';

const StepEvent = z.looseObject({
  team_id: z.string().optional(),
  enterprise_id: z.string().optional(),
  event: z.looseObject({
    type: z.literal('function_executed'),
    function_execution_id: z.string().min(1),
    bot_access_token: z.string().min(1),
  }),
});

/** True when `body` is a step's event (then its failure has been started). */
export function failUnauthorizedStep(
  deps: Pick<WorklinkDeps, 'store' | 'logger' | 'config'>,
  body: unknown,
  installPath: string,
): boolean {
  const parsed = StepEvent.safeParse(body);
  if (!parsed.success) return false;
  void failStep(deps, parsed.data, installPath).catch((e: unknown) =>
    deps.logger.error(`Could not fail an unauthorized workflow step: ${errMessage(e)}`),
  );
  return true;
}

async function failStep(
  deps: Pick<WorklinkDeps, 'store' | 'logger' | 'config'>,
  body: z.infer<typeof StepEvent>,
  installPath: string,
): Promise<void> {
  const { function_execution_id: id, bot_access_token: token } = body.event;
  const claimed = await deps.store.seenRequests.claim(`fn:${id}`, Date.now() + EXECUTION_KEEP_MS);
  if (!claimed) {
    deps.logger.info(`Workflow step ${id} was delivered again; it ends once.`);
    return;
  }
  const unreadable = await installUnreadable(deps.store, body.team_id, body.enterprise_id);
  const error = unreadable
    ? installUnreadableText(deps.config, installPath)
    : `Worklink is not installed for this Slack workspace (or its installation was removed), so it could not run this step. An admin can install it again (Worklink's ${installPath} page).`;
  const client = new WebClient(token, {
    slackApiUrl: deps.config.slackApiUrl,
    logger: deps.logger,
  });
  await client.functions.completeError({ function_execution_id: id, error: plainError(error) });
  deps.logger.warn(`Workflow step ${id} of team ${body.team_id ?? '-'} failed: not authorized.`);
}
