/** Registering a button listener: see afterAck (ack, context, connection, one-sentence failures). */
import type { AllMiddlewareArgs, App, SlackActionMiddlewareArgs } from '@slack/bolt';
import { afterAck } from './after-ack.js';
import type { WorklinkDeps } from './deps.js';
import type { WorkContext } from './work-context.js';

export type ActionArgs = SlackActionMiddlewareArgs & AllMiddlewareArgs;

/** The pressed element's value, trimmed (buttons carry a task or project id). */
export function pressedValue(args: ActionArgs): string {
  const { action } = args;
  return 'value' in action && typeof action.value === 'string' ? action.value.trim() : '';
}

export function onAction(
  app: App,
  deps: WorklinkDeps,
  actionId: string | RegExp,
  fn: (ctx: WorkContext, args: ActionArgs) => Promise<void>,
): void {
  app.action(actionId, afterAck<ActionArgs>(deps, 'button', fn));
}
