/**
 * Slash command listeners. Add a line per feature module: importing it runs its
 * registerSubcommand calls; its `register` wires any Bolt listeners it has.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as connection from './connection.js';
import * as directory from './directory.js';
import * as links from './links.js';
import * as projects from './projects.js';
import * as tasks from './tasks.js';
import * as work from './work.js';

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
