/**
 * Opening the create/edit form: a loading view with the trigger_id at once (Slack's trigger
 * expires 3 s after the click), then the data (known projects, the chosen project's details
 * and groups, the workspace's users, the task for an edit), then views.update with the form.
 */

import { isWorkApiError } from '../../../workapi/client.js';
import type { TaskFileInput } from '../../../workapi/contract.js';
import { errMessage, errorText } from '../../context/error-replies.js';
import { openWithLoading } from '../../context/open-with-loading.js';
import type { WorkContext } from '../../context/work-context.js';
import { calendarDate } from '../../format/date-text.js';
import { indexedStatusName } from '../../format/status-words.js';
import { workspaceUsers } from '../../people/service-users.js';
import { factsFromTask } from '../facts.js';
import { loadProjectInfo, type ProjectInfo, statusFromDoneFlag } from '../project-info.js';
import { editFingerprints } from './read.js';
import { SIMILAR_LIMIT, similarHint } from './similar.js';
import { shownTaskName, type TaskFormValues } from './task-form-fields.js';
import type { TaskFormMeta } from './task-form-meta.js';
import { createDefaults, type TaskFormData, taskFormModal } from './task-form-modal.js';

export type OpenFormRequest =
  | {
      mode: 'create';
      values?: TaskFormValues;
      files?: TaskFileInput[];
      /** Slow prefill work (permalink, files) done while the loading view shows. */
      prefill?: () => Promise<{ values?: TaskFormValues; files?: TaskFileInput[] }>;
      /** The message the task is made from (its thread is answered once created). */
      source?: TaskFormMeta['source'];
    }
  | { mode: 'edit'; taskId: string };

/** Opens the loading view, then the form; failures are said in the modal (or a reply). */
export async function openTaskForm(ctx: WorkContext, req: OpenFormRequest): Promise<void> {
  const meta: TaskFormMeta = {
    mode: req.mode,
    channelId: ctx.channelId,
    responseUrl: ctx.responseUrl,
    ...(req.mode === 'create' && req.source ? { source: req.source } : {}),
  };
  const how =
    req.mode === 'edit'
      ? 'Please try again.'
      : 'Please try again, or create it in one step with `/work add <title>`.';
  await openWithLoading(ctx, {
    title: req.mode === 'edit' ? 'Edit task' : 'New task',
    noTrigger: 'The task form can only be opened from a command, button or shortcut.',
    openFailed: (code) => `Could not open the task form (${code}). ${how}`,
    wording:
      req.mode === 'edit'
        ? { action: 'load the task', id: req.taskId }
        : { action: 'load the task form' },
    build: async () => {
      if (req.mode === 'edit') return taskFormModal(await editFormData(ctx, req.taskId, meta));
      type Prefill = { values?: TaskFormValues; files?: TaskFileInput[] };
      const extra: Prefill = req.prefill
        ? await req.prefill().catch((e: unknown) => {
            // The prefill (permalink, files) is a nicety: the form opens without it.
            ctx.logger.debug(`Task form prefill failed: ${errMessage(e)}`);
            return {};
          })
        : {};
      const files = [...(req.files ?? []), ...(extra.files ?? [])];
      const data = await createFormData(ctx, {
        meta: { ...meta, files: files.length ? files : undefined },
        values: { ...req.values, ...extra.values },
      });
      return taskFormModal(data);
    },
  });
}

/**
 * The create form's data. The project is the one asked for, else the channel's linked one,
 * else the most recently seen; an unknown project is said in the form, not thrown.
 */
export async function createFormData(
  ctx: WorkContext,
  input: { meta: TaskFormMeta; values?: TaskFormValues; banner?: string },
): Promise<TaskFormData> {
  const { meta } = input;
  const values = { ...input.values };
  const link = meta.channelId
    ? await ctx.store.channelProjects.get(ctx.teamId, meta.channelId)
    : undefined;
  const firstKnown = (await ctx.store.knownProjects.list(ctx.teamId, 1))[0]?.projectId;
  const projectId = values.projectId ?? meta.projectId ?? link?.projectId ?? firstKnown;

  const [loaded, users] = await Promise.all([
    projectId ? loadProject(ctx, projectId) : Promise.resolve(undefined),
    workspaceUsers(ctx),
  ]);
  const project = loaded?.project;
  const projects = (await ctx.store.knownProjects.list(ctx.teamId)).map((p) => ({
    id: p.projectId,
    name: p.projectName,
  }));
  return {
    meta: { ...meta, projectId: project?.id },
    values: {
      ...createDefaults(project),
      ...dropUndefined(values),
      projectId: project?.id ?? projectId,
    },
    projects,
    project,
    projectProblem: loaded?.problem,
    users,
    banner: input.banner,
    similarHint:
      project && values.name
        ? similarHint(
            await ctx.store.taskIndex.similar(ctx.teamId, project.id, values.name, SIMILAR_LIMIT),
          )
        : undefined,
  };
}

/** The project's info, or the sentence saying why it is missing (unknown ones are forgotten). */
async function loadProject(
  ctx: WorkContext,
  projectId: string,
): Promise<{ project?: ProjectInfo; problem?: string }> {
  try {
    return { project: await loadProjectInfo(ctx, projectId) };
  } catch (e) {
    if (isWorkApiError(e) && (e.kind === 'not_found' || e.kind === 'invalid')) {
      await ctx.store.knownProjects.forget(ctx.teamId, projectId);
      return {
        problem: `There is no project \`${projectId.slice(0, 40)}\` in the connected workspace; choose another.`,
      };
    }
    if (isWorkApiError(e) || e instanceof Error) {
      return { problem: errorText(ctx, e, { action: 'load the project', id: projectId }) };
    }
    throw e;
  }
}

/** The edit form's data: the task's values, prefilled, with fingerprints to diff at submit. */
export async function editFormData(
  ctx: WorkContext,
  taskId: string,
  meta: TaskFormMeta,
): Promise<TaskFormData> {
  const facts = factsFromTask(await ctx.work.getTask(taskId));
  const [project, users, indexed] = await Promise.all([
    loadProjectInfo(ctx, facts.projectId ?? ''),
    workspaceUsers(ctx),
    ctx.store.taskIndex.get(ctx.teamId, taskId),
  ]);
  // Get task has no status id: the name the index was told, else the only status of its kind.
  const named = indexedStatusName(indexed, facts.done);
  const status =
    (named ? project.statuses.find((s) => s.Name === named) : undefined) ??
    statusFromDoneFlag(project.statuses, facts.done);
  const values: TaskFormValues = {
    projectId: project.id,
    name: facts.name,
    description: facts.description ?? '',
    assignees: facts.assigneeIds,
    dueDate: calendarDate(facts.dueDate),
    priority: project.priorityEnabled
      ? String(facts.priority ?? project.defaultPriority)
      : undefined,
    groupId: facts.groupId,
    statusId: status?._id,
    estimate: facts.estimate !== undefined ? String(facts.estimate) : undefined,
    milestone: facts.milestone !== undefined ? String(facts.milestone) : undefined,
  };
  return {
    meta: {
      ...meta,
      mode: 'edit',
      taskId: facts.taskId,
      projectId: project.id,
      // Of what the form shows: a value it could not show whole is not written back.
      orig: editFingerprints({ ...values, name: shownTaskName(facts.name) }),
    },
    values,
    projects: [],
    project,
    users,
    statusUnknown: !status,
  };
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
