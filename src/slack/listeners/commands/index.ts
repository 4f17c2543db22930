/**
 * Slash command listeners. Add a line per feature module: importing it runs its
 * registerSubcommand calls; its `register` wires any Bolt listeners it has.
 */
import type { App } from '@slack/bolt';
import * as work from '../../commands/router.js';
import * as connection from '../../connection/commands.js';
import type { WorklinkDeps } from '../../context.js';
import * as links from '../../people/commands.js';
import * as projects from '../../projects/commands.js';
import * as directory from '../../projects/directory/commands.js';
import * as tasks from '../../tasks/commands.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [
  work,
  connection,
  tasks,
  projects,
  directory,
  links,
];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
