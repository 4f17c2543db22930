/**
 * The connection feature's Bolt listeners (its `/work` subcommands come from
 * `connectionCommands` in commands.ts): the connect modal's submission, and forgetting a
 * workspace that removed Worklink.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import * as connectSubmit from './submit.js';
import * as uninstall from './uninstall.js';

export function registerConnection(app: App, deps: WorklinkDeps): void {
  connectSubmit.register(app, deps);
  uninstall.register(app, deps);
}
