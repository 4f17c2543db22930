/**
 * Buttons of the project card (Edit, Link to this channel), "Open" on a project anywhere
 * (App Home, task cards) and App Home's "New project" and "New task" (the latter opens the
 * tasks feature's create form, the same one as its "New task" shortcut). Each acks first.
 */
import type { App } from '@slack/bolt';
import {
  errMessage,
  requireConnection,
  runSafely,
  type WorkContext,
  type WorklinkDeps,
  workContext,
} from '../../context.js';
import { projectIdProblem } from '../../parse/ids.js';
import { replyWithProjectCard } from '../../projects/card.js';
import { linkProject } from '../../projects/link.js';
import { openProjectCreateModal, openProjectEditModal } from '../../projects/modals.js';
import { openTaskForm } from '../../tasks/form.js';
import { ACTION } from '../../ui/ids.js';

type ActionArgs = Parameters<Parameters<App['action']>[1]>[0];

export function register(app: App, deps: WorklinkDeps): void {
  /** ack, context, connection and a project id from the button's value, then `fn`. */
  const onProjectButton = (
    actionId: string,
    fn: (ctx: WorkContext, projectId: string) => Promise<void>,
  ) => {
    app.action(actionId, async (args: ActionArgs) => {
      await args.ack();
      try {
        const ctx = workContext(deps, args);
        const value = (args.action as { value?: string }).value ?? '';
        const problem = projectIdProblem(value);
        if (problem) {
          await ctx.reply(`This button names no usable project (${problem}) Nothing was done.`);
          return;
        }
        if (!(await requireConnection(ctx))) return;
        await fn(ctx, value.trim());
      } catch (e) {
        deps.logger.error(`The ${actionId} button failed before it could reply: ${errMessage(e)}`);
      }
    });
  };

  onProjectButton(ACTION.projectEdit, (ctx, id) => openProjectEditModal(ctx, id));
  onProjectButton(ACTION.projectLink, (ctx, id) => linkProject(ctx, id));
  onProjectButton(ACTION.projectOpen, (ctx, id) =>
    runSafely(ctx, { action: 'load the project', id }, () => replyWithProjectCard(ctx, id)),
  );

  /** ack, context and connection, then `fn` (App Home buttons carry no value). */
  const onHomeButton = (actionId: string, fn: (ctx: WorkContext) => Promise<void>) => {
    app.action(actionId, async (args: ActionArgs) => {
      await args.ack();
      try {
        const ctx = workContext(deps, args);
        if (!(await requireConnection(ctx))) return;
        await fn(ctx);
      } catch (e) {
        deps.logger.error(`The ${actionId} button failed before it could reply: ${errMessage(e)}`);
      }
    });
  };

  onHomeButton(ACTION.homeNewProject, (ctx) => openProjectCreateModal(ctx));
  onHomeButton(ACTION.homeNewTask, (ctx) => openTaskForm(ctx, { mode: 'create' }));
}
