/**
 * The projects feature's Bolt listeners (its `/work` subcommands are `projectCommands` in
 * commands.ts and `directoryCommands` in directory/commands.ts): the card's buttons and the
 * project form's submissions.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import * as buttons from './actions.js';
import * as formSubmit from './form/submit.js';

export function registerProjects(app: App, deps: WorklinkDeps): void {
  buttons.register(app, deps);
  formSubmit.register(app, deps);
}
