/**
 * The identity feature's Bolt listeners (its `/work` subcommands come from
 * `identityCommands` in commands.ts): the "Connect your account" modal's submission and the
 * Home tab's connect / disconnect buttons. `refreshHome` publishes the person's Home again.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { type ActionArgs, onAction } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { forgetOwnKey, openOwnKeyModal } from './commands.js';
import {
  HOME_CONNECT_ME,
  HOME_DISCONNECT_ME,
  HOME_SETTING_LINKS,
  HOME_SETTING_MEMBERS,
} from './connect-me-modal.js';
import { changeSetting } from './settings.js';
import * as ownKeySubmit from './submit.js';

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
  // The admin's settings selects: saved as chosen; only a refusal is answered.
  const setting = (name: string) => async (ctx: WorkContext, args: ActionArgs) => {
    const text = await changeSetting(ctx, name, selectedValue(args));
    if (!text.startsWith('Saved')) await ctx.reply(text);
    await refreshHome(ctx);
  };
  onAction(app, deps, HOME_SETTING_MEMBERS, setting('members'));
  onAction(app, deps, HOME_SETTING_LINKS, setting('links'));
}

function selectedValue(args: ActionArgs): string {
  const { action } = args;
  return 'selected_option' in action && action.selected_option
    ? (action.selected_option.value ?? '')
    : '';
}
