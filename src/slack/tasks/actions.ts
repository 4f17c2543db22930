/**
 * Task buttons, wherever the card or list is (channel message, ephemeral, DM — the
 * notification DMs use the same ids with value = taskId): Comment, Edit, Mark complete,
 * Open, list paging; App Home's "New task" (the form's own menus: form/actions.ts).
 */
import type { App } from '@slack/bolt';
import type { WorklinkDeps } from '../context/deps.js';
import { runSafely } from '../context/error-replies.js';
import { type ActionArgs, onAction, pressedValue } from '../context/on-action.js';
import type { WorkContext } from '../context/work-context.js';
import { taskIdProblem } from '../parse/service-id.js';
import { ACTION } from '../ui/block-ids.js';
import { fitMessage } from '../ui/limits.js';
import { showDetails } from './card/details.js';
import { readRowChoice } from './card/row-menu.js';
import { openTaskForm } from './form/open.js';
import { loadListPage } from './list/load.js';
import { readListPageValue, taskListMessage } from './list/task-list-page.js';
import { openCommentForm, statusPressed } from './pressed.js';

export function register(app: App, deps: WorklinkDeps): void {
  /** A button whose value is a task id: an unusable one is answered, `fn` gets a usable one. */
  const onTaskButton = (
    actionId: string,
    fn: (ctx: WorkContext, taskId: string, args: ActionArgs) => Promise<void>,
  ) =>
    onAction(app, deps, actionId, async (ctx, args) => {
      const taskId = pressedValue(args);
      const problem = taskIdProblem(taskId);
      if (problem) return void (await ctx.reply(problem));
      await fn(ctx, taskId, args);
    });

  onTaskButton(ACTION.taskComplete, (ctx, taskId, args) =>
    statusPressed(ctx, taskId, args, 'complete'),
  );
  onTaskButton(ACTION.taskReopen, (ctx, taskId, args) =>
    statusPressed(ctx, taskId, args, 'reopen'),
  );

  onTaskButton(ACTION.taskEdit, async (ctx, taskId) => {
    await openTaskForm(ctx, { mode: 'edit', taskId });
  });

  onTaskButton(ACTION.taskComment, openCommentForm);

  onTaskButton(ACTION.taskOpen, (ctx, taskId, args) => showDetails(ctx, taskId, args));
  // A row's menu (lists, the digest): the same as the buttons it stands for.
  onAction(app, deps, ACTION.taskRowMenu, async (ctx, args) => {
    const picked = readRowChoice(args);
    if (!picked || taskIdProblem(picked.taskId)) return;
    const { choice, taskId } = picked;
    if (choice === 'complete') await statusPressed(ctx, taskId, args, 'complete');
    else if (choice === 'comment') await openCommentForm(ctx, taskId, args);
    else await showDetails(ctx, taskId, args);
  });

  // Previous / Next: ACTION.taskListPage + ":prev" / ":next".
  onAction(app, deps, new RegExp(`^${ACTION.taskListPage}(:|$)`), async (ctx, args) => {
    const page = readListPageValue(pressedValue(args));
    if (!page)
      return void (await ctx.reply('That list button is out of date; run `/work list` again.'));
    await runSafely(ctx, { action: 'list the tasks', id: page.projectId }, async () => {
      const message = taskListMessage(await loadListPage(ctx, page));
      if (args.respond) await args.respond(fitMessage({ replace_original: true, ...message }));
      else await ctx.reply(message);
    });
  });

  // App Home's button carries no value.
  onAction(app, deps, ACTION.homeNewTask, (ctx) => openTaskForm(ctx, { mode: 'create' }));
}
