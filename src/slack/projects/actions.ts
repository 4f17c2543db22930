/**
 * Buttons of the project card (Edit, Link to this channel), "Open" on a project anywhere
 * (App Home, task cards) and App Home's "New project" (its "New task" is the tasks feature's:
 * src/slack/tasks/actions.ts). Each acks first.
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { runSafely } from '../context/error-replies.js';
import { onAction, pressedValue } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { projectIdProblem } from '../parse/service-id.js';
import { ACTION } from '../ui/block-ids.js';
import { replyWithProjectCard } from './card/reply.js';
import { openProjectCreateModal, openProjectEditModal } from './form/open.js';
import { linkProject } from './link.js';

export function register(app: App, deps: WorklinkDeps): void {
  /** A button whose value is a project id: an unusable one is answered, `fn` gets a usable one. */
  const onProjectButton = (
    actionId: string,
    fn: (ctx: WorkContext, projectId: string) => Promise<void>,
  ) =>
    onAction(app, deps, actionId, async (ctx, args) => {
      const value = pressedValue(args);
      const problem = projectIdProblem(value);
      if (problem) {
        await ctx.reply(`This button names no usable project (${problem}) Nothing was done.`);
        return;
      }
      await fn(ctx, value);
    });

  onProjectButton(ACTION.projectEdit, (ctx, id) => openProjectEditModal(ctx, id));
  onProjectButton(ACTION.projectLink, (ctx, id) => linkProject(ctx, id));
  onProjectButton(ACTION.projectOpen, (ctx, id) =>
    runSafely(ctx, { action: 'load the project', id }, () => replyWithProjectCard(ctx, id)),
  );

  // App Home's button carries no value.
  onAction(app, deps, ACTION.homeNewProject, (ctx) => openProjectCreateModal(ctx));
}
