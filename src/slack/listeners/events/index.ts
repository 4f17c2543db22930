/** Events API listeners. Add a line per feature module. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';
import * as home from './home.js';
import * as lifecycle from './lifecycle.js';

const modules: { register(app: App, deps: WorklinkDeps): void }[] = [lifecycle, home];

export function register(app: App, deps: WorklinkDeps): void {
  for (const m of modules) m.register(app, deps);
}
