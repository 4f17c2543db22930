/** Placeholder until the projects work fills it: registers nothing yet. */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../../context.js';

export function register(_app: App, _deps: WorklinkDeps): void {}
