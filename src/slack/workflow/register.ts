/**
 * The Workflow Builder custom steps' listeners (Bolt's `app.function`, one per `functions`
 * entry of manifest.yml). Each runs through run-step.ts: acked at once, run once per
 * execution, ended with `complete` or `fail`.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { addCommentStep } from './comment-step.js';
import { createTaskStep } from './create-step.js';
import { findTaskStep } from './find-step.js';
import { registerStep } from './run-step.js';
import { completeTaskStep, reopenTaskStep } from './status-steps.js';

export function registerWorkflowSteps(app: App, deps: WorklinkDeps): void {
  registerStep(app, deps, createTaskStep);
  registerStep(app, deps, addCommentStep);
  registerStep(app, deps, completeTaskStep);
  registerStep(app, deps, reopenTaskStep);
  registerStep(app, deps, findTaskStep);
}
