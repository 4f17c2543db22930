/**
 * The identity feature's Bolt listeners (its `/work` subcommands come from
 * `identityCommands` in commands.ts): the "Connect your account" modal's submission and the
 * Home tab's connect / disconnect buttons. `refreshHome` publishes the person's Home again.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { onAction } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { forgetOwnKey, openOwnKeyModal } from './commands.js';
import * as ownKeySubmit from './submit.js';
import { HOME_CONNECT_ME, HOME_DISCONNECT_ME } from './view.js';

export function registerIdentity(
  app: App,
  deps: WorklinkDeps,
  refreshHome: (ctx: WorkContext) => Promise<void>,
): void {
  ownKeySubmit.register(app, deps, refreshHome);
  // onAction answers "not connected" itself before these run.
  onAction(app, deps, HOME_CONNECT_ME, (ctx) => openOwnKeyModal(ctx));
  onAction(app, deps, HOME_DISCONNECT_ME, async (ctx) => {
    await ctx.reply(await forgetOwnKey(ctx));
    await refreshHome(ctx);
  });
}
