/**
 * Opening the project modals. The trigger_id expires 3 s after the click or command, and the
 * forms need data from the service, so a "Loading…" view opens at once and is replaced by
 * the form (or by the reason it cannot be shown) when the data is in.
 */
import type { ModalView } from '@slack/types';
import { errMessage, errorText } from '../../context/error-replies.js';
import type { WorkContext } from '../../context/work-context.js';
import {
  channelProjectId,
  forgetIfGone,
  knownName,
  rememberProject,
} from '../../shared/project-context.js';
import { slackErrorCode } from '../../ui/error-text.js';
import { loadingModal, noticeModal } from '../../ui/notice-modal.js';
import { projectCreateModal } from './create-view.js';
import { projectEditModal } from './edit-view.js';
import { type EditMeta, type ProjectFormMeta, snapshotOf } from './read.js';

/** `/work project new [name]`, App Home's "New project". */
export async function openProjectCreateModal(ctx: WorkContext, name?: string): Promise<void> {
  const meta: ProjectFormMeta = { channelId: ctx.channelId, responseUrl: ctx.responseUrl };
  await openWithLoading(ctx, 'New project', 'the new-project form', async () => {
    const linked = channelProjectId(ctx);
    const templates = ctx.store.knownProjects.list(ctx.teamId);
    try {
      const customers = await ctx.work.listCustomers();
      return projectCreateModal({
        customers,
        templates,
        meta,
        name,
        channelProjectName: linked && knownName(ctx, linked),
      });
    } catch (e) {
      return projectCreateModal({
        templates,
        meta,
        name,
        channelProjectName: linked && knownName(ctx, linked),
        customersProblem: errorText(ctx, e, { action: 'load the customers' }),
      });
    }
  });
}

/** `/work project edit <id>`, the card's Edit button. `projectId` is already checked. */
export async function openProjectEditModal(ctx: WorkContext, projectId: string): Promise<void> {
  await openWithLoading(
    ctx,
    'Edit project',
    'the project form',
    async () => {
      const customers = ctx.work.listCustomers().then(
        (list) => ({ list, problem: undefined }),
        (e: unknown) => ({
          list: undefined,
          problem: errorText(ctx, e, { action: 'load the customers' }),
        }),
      );
      const [project, details] = await forgetIfGone(
        ctx,
        projectId,
        Promise.all([ctx.work.getProject(projectId), ctx.work.getProjectDetails(projectId)]),
      ).catch(async (e: unknown) => {
        await customers; // finished before the failure is shown: nothing left running
        throw e;
      });
      rememberProject(ctx, project.projectId, project.projectName);
      const meta: EditMeta = {
        channelId: ctx.channelId,
        responseUrl: ctx.responseUrl,
        projectId: project.projectId,
        original: snapshotOf(project, details),
      };
      const c = await customers;
      return projectEditModal({
        meta,
        description: project.description ?? details.Description ?? '',
        customers: c.list,
        customersProblem: c.problem,
      });
    },
    { action: 'load the project', id: projectId },
  );
}

async function openWithLoading(
  ctx: WorkContext,
  title: string,
  what: string,
  build: () => Promise<ModalView>,
  wording = { action: `open ${what}` } as { action: string; id?: string },
): Promise<void> {
  if (!ctx.triggerId) {
    await ctx.reply(`Could not open ${what}: Slack gave no trigger for a form. Please try again.`);
    return;
  }
  let viewId: string | undefined;
  try {
    const opened = await ctx.slack.views.open({
      trigger_id: ctx.triggerId,
      view: loadingModal(title),
    });
    viewId = opened.view?.id;
  } catch (e) {
    await ctx.reply(`Could not open ${what} (${slackErrorCode(e)}). Please try again.`);
    return;
  }
  let view: ModalView;
  try {
    view = await build();
  } catch (e) {
    view = noticeModal(title, errorText(ctx, e, wording));
  }
  if (!viewId) return;
  try {
    await ctx.slack.views.update({ view_id: viewId, view });
  } catch (e) {
    // Most often the person closed the loading view already; nothing is lost.
    ctx.logger.warn(`Could not show ${what} (view ${viewId}): ${errMessage(e)}`);
  }
}
