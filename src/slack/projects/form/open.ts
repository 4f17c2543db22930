/**
 * Opening the project modals. The trigger_id expires 3 s after the click or command, and the
 * forms need data from the service, so a "Loading…" view opens at once and is replaced by
 * the form (or by the reason it cannot be shown) when the data is in.
 */
import type { ModalView } from '@slack/types';
import { errorText } from '../../context/error-replies.js';
import { openWithLoading } from '../../context/open-with-loading.js';
import type { WorkContext } from '../../context/work-context.js';
import {
  channelProjectId,
  forgetIfGone,
  knownName,
  rememberProject,
} from '../../shared/project-context.js';
import type { ErrorWording } from '../../ui/error-text.js';
import { projectCreateModal } from './create-view.js';
import { projectEditModal } from './edit-view.js';
import { type EditMeta, type ProjectFormMeta, snapshotOf } from './read.js';

/** `/work project new [name]`, App Home's "New project". */
export async function openProjectCreateModal(ctx: WorkContext, name?: string): Promise<void> {
  const meta: ProjectFormMeta = { channelId: ctx.channelId, responseUrl: ctx.responseUrl };
  await openProjectModal(ctx, 'New project', 'the new-project form', async () => {
    const linked = await channelProjectId(ctx);
    const templates = await ctx.store.knownProjects.list(ctx.teamId);
    try {
      const customers = await ctx.work.listCustomers();
      return projectCreateModal({
        customers,
        templates,
        meta,
        name,
        channelProjectName: linked && (await knownName(ctx, linked)),
      });
    } catch (e) {
      return projectCreateModal({
        templates,
        meta,
        name,
        channelProjectName: linked && (await knownName(ctx, linked)),
        customersProblem: errorText(ctx, e, { action: 'load the customers' }),
      });
    }
  });
}

/** `/work project edit <id>`, the card's Edit button. `projectId` is already checked. */
export async function openProjectEditModal(ctx: WorkContext, projectId: string): Promise<void> {
  await openProjectModal(
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
      await rememberProject(ctx, project.projectId, project.projectName);
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

/** The project forms' words for openWithLoading. */
function openProjectModal(
  ctx: WorkContext,
  title: string,
  what: string,
  build: () => Promise<ModalView>,
  wording: ErrorWording = { action: `open ${what}` },
): Promise<void> {
  return openWithLoading(ctx, {
    title,
    noTrigger: `Could not open ${what}: Slack gave no trigger for a form. Please try again.`,
    openFailed: (code) => `Could not open ${what} (${code}). Please try again.`,
    build,
    wording,
  });
}
