/**
 * App Home: on app_home_opened (the Home tab), publish the person's Home view — connection
 * state, linked channels, known projects and the /work commands it is given (src/slack/app.ts).
 */
import type { App } from '@slack/bolt';
import { isNotifyKind, NOTIFY_KINDS, type NotifyKind } from '../../store/index.js';
import type { Subcommand } from '../commands/router.js';
import { requireActing } from '../context/acting.js';
import type { WorklinkDeps } from '../context/deps.js';
import { errMessage } from '../context/error-replies.js';
import { onAction, pressedValue } from '../context/on-action.js';
import { type WorkContext, workContext } from '../context/work-context.js';
import { formatMoment } from '../format/date-text.js';
import { esc } from '../format/text.js';
import { howYouAct } from '../identity/me.js';
import { taskIdProblem } from '../parse/service-id.js';
import { showDetails } from '../tasks/card/details.js';
import { readRowChoice } from '../tasks/card/row-menu.js';
import { taskChanges } from '../tasks/changes.js';
import { replyCompletionError } from '../tasks/complete.js';
import { loadMine } from '../tasks/mine/load.js';
import { mineHomeBlocks } from '../tasks/mine/my-tasks-view.js';
import { openCommentForm } from '../tasks/pressed.js';
import { ACTION } from '../ui/block-ids.js';
import { fitView } from '../ui/limits.js';
import { homeView } from './home-view.js';
import { channelsOf } from './my-channels.js';

/** Builds and publishes the Home view of `ctx.userId`. Throws when views.publish fails. */
export async function publishHome(
  ctx: WorkContext,
  commands: readonly Subcommand[],
  minePage = 0,
): Promise<void> {
  const { store, teamId } = ctx;
  const info = await store.connections.info(teamId);
  const [admin, mine] = await Promise.all([
    ctx.deps.users
      .get(ctx.slack, teamId, ctx.userId)
      .then((u) => u.isAdmin || u.isOwner)
      .catch((e: unknown) => {
        // Without users.info the safe answer is "not an admin": admin parts stay hidden.
        ctx.deps.logger.debug(`App Home: is ${ctx.userId} an admin? ${errMessage(e)}`);
        return false;
      }),
    ctx.connection
      ? loadMine(ctx, ctx.userId).catch((e: unknown) => ({
          problem: `Your tasks could not be loaded (${esc(errMessage(e))}).`,
        }))
      : undefined,
  ]);
  const connectedAt = info ? formatMoment(info.connectedAt, await ctx.userTimeZone()) : '';
  const known = await store.knownProjects.list(teamId);
  const names = new Map(known.map((p) => [p.projectId, p.projectName]));
  // Only the links of channels the reader is in (a private channel's stays private).
  const inChannels = await channelsOf(ctx, ctx.userId).catch((e: unknown) => {
    ctx.deps.logger.debug(`App Home: channels of ${ctx.userId}: ${errMessage(e)}`);
    return undefined;
  });
  const allLinks = await store.channelProjects.listForTeam(teamId);
  const links = await Promise.all(
    allLinks
      .filter((l) => inChannels?.has(l.channelId))
      .map(async (l) => ({
        channelId: l.channelId,
        projectId: l.projectId,
        projectName:
          names.get(l.projectId) ??
          (await store.knownProjects.get(teamId, l.projectId))?.projectName ??
          l.projectId,
      })),
  );
  const settings = await store.notifySettings.all(teamId, ctx.userId);
  const notify = {
    kinds: (Object.keys(NOTIFY_KINDS) as NotifyKind[]).map((kind) => ({
      kind,
      label: NOTIFY_KINDS[kind].label,
      on: settings[kind],
    })),
    quiet: await store.notifySettings.quietHours(teamId, ctx.userId),
  };
  const own = ctx.connection ? await store.personalKeys.info(teamId, ctx.userId) : undefined;
  const you = ctx.connection
    ? {
        text: await howYouAct(ctx).catch(
          (e: unknown) => `_Unavailable right now (${esc(errMessage(e))})._`,
        ),
        ownKey: Boolean(own && !own.failingSince),
      }
    : undefined;
  const view = homeView({
    you,
    linksUnreadable: inChannels === undefined && allLinks.length > 0,
    settings: admin ? await store.teamSettings.get(teamId) : undefined,
    notify,
    connection: info
      ? { workspaceName: info.workspaceName, connectedBy: info.connectedBy, connectedAt }
      : undefined,
    keyUnreadable: ctx.connectionUnreadable,
    links,
    projects: known,
    commands,
    admin,
    myTasks: mine ? mineHomeBlocks(mine, 10, minePage) : undefined,
  });
  await ctx.slack.views.publish({ user_id: ctx.userId, view: fitView(view) });
}

/** `commands`: what the Home tab lists (the router's visible subcommands). */
export function registerHome(app: App, deps: WorklinkDeps, commands: readonly Subcommand[]): void {
  // My tasks' Mark complete: the task leaves the list, so Home is published again.
  const complete = async (ctx: WorkContext, taskId: string) => {
    const by = await requireActing(ctx);
    if (!by) return;
    try {
      await taskChanges(ctx).complete(by, taskId);
    } catch (e) {
      await replyCompletionError(ctx, e, taskId);
    }
    await publishHome(ctx, commands);
  };
  // A row's one menu (tasks/card/row-menu.ts); the button is what Homes published before had.
  onAction(app, deps, ACTION.homeTaskMenu, async (ctx, args) => {
    const picked = readRowChoice(args);
    if (!picked || taskIdProblem(picked.taskId)) return;
    const { choice, taskId } = picked;
    if (choice === 'complete') await complete(ctx, taskId);
    else if (choice === 'comment') await openCommentForm(ctx, taskId, args);
    else await showDetails(ctx, taskId, args);
  });
  onAction(app, deps, ACTION.homeTaskComplete, (ctx, args) => complete(ctx, pressedValue(args)));

  // My tasks, a page at a time: Previous / Next publish Home at that page.
  onAction(app, deps, new RegExp(`^${ACTION.homeMinePage}:`), async (ctx, args) => {
    const page = Number(pressedValue(args));
    await publishHome(ctx, commands, Number.isInteger(page) && page >= 0 ? page : 0);
  });

  // The notification checkboxes: every kind is set to whether it is ticked now.
  onAction(app, deps, ACTION.homeNotify, async (ctx, args) => {
    const { action } = args;
    const ticked =
      'selected_options' in action && Array.isArray(action.selected_options)
        ? action.selected_options.map((o: { value?: string }) => o.value ?? '')
        : [];
    for (const kind of Object.keys(NOTIFY_KINDS).filter(isNotifyKind)) {
      await ctx.store.notifySettings.set(ctx.teamId, ctx.userId, kind, ticked.includes(kind));
    }
    await publishHome(ctx, commands);
  });

  app.event('app_home_opened', async (args) => {
    // Events are acknowledged by Bolt; the Messages tab has no view to publish.
    if (args.event.tab && args.event.tab !== 'home') return;
    try {
      await publishHome(await workContext(deps, args), commands);
    } catch (e) {
      deps.logger.warn(`Could not publish App Home for ${args.event.user}: ${errMessage(e)}`);
    }
  });
}
