/**
 * "Create a task": the same create as `/work add` — the project by name or id (pickProject),
 * the due date read in the runner's time zone (parseDueDate), assignees matched to the
 * service's users (resolveAssignees), then the one create path (assignment DMs, activity).
 * Anything wrong with the inputs fails the step before the service is asked, so nothing is
 * created.
 */
import { PRIORITY_NAMES, priorityNumber } from '../../workapi/contract.js';
import { esc } from '../format/text.js';
import { parseDueDate } from '../parse/due-date.js';
import { pickProject } from '../shared/project-here.js';
import { resolveAssignees } from '../tasks/assignees.js';
import { taskChanges } from '../tasks/changes.js';
import { factsFromTask } from '../tasks/facts.js';
import { loadProjectInfo, type ProjectInfo } from '../tasks/project-info.js';
import type { StepResult, StepRun, StepSpec } from './run-step.js';
import { STEP } from './steps.js';
import { withoutCommands } from './task-input.js';
import { describeTask } from './task-outputs.js';

const NOTHING = 'Nothing was created.';

export const createTaskStep: StepSpec<'create_task'> = {
  step: STEP.createTask,
  actorInput: 'run_by',
  run: createTask,
};

async function createTask({ ctx, by, inputs }: StepRun): Promise<StepResult<'create_task'>> {
  const title = inputs.text('title');
  if (!title) return { error: `The task has no title: map a value into “Title”. ${NOTHING}` };
  if (title.length > 500) return { error: `The title is longer than 500 characters. ${NOTHING}` };
  const description = inputs.text('description');
  if (description.length > 20_000) {
    return { error: `The description is longer than 20,000 characters. ${NOTHING}` };
  }
  const projectText = inputs.text('project');
  if (!projectText) {
    return { error: `No project was given: map its name or id into “Project”. ${NOTHING}` };
  }
  const people = inputs.users('assignees');
  if (people.bad.length) {
    return {
      error: `“${esc(people.bad[0]!)}” in “Assignees” is not a Slack user: map people into it. ${NOTHING}`,
    };
  }
  const priorityText = inputs.text('priority');
  const priority = priorityText ? priorityNumber(priorityText) : undefined;
  if (priorityText && priority === undefined) {
    return {
      error: `“${esc(priorityText)}” is not a priority: use ${PRIORITY_NAMES.join(', ')} (or 0–4). ${NOTHING}`,
    };
  }
  let dueDate: string | undefined;
  const dueText = inputs.text('due_date');
  if (dueText) {
    const zone = ctx.userId ? await ctx.userTimeZone() : 'UTC';
    const date = parseDueDate(dueText, zone);
    if (!date.ok) return { error: `${date.error} ${NOTHING}` };
    dueDate = date.date;
  }
  const picked = await pickProject(ctx, projectText);
  if (!picked.ok) return { error: withoutCommands(picked.error) };

  const groupName = inputs.text('group');
  const [project, assignees] = await Promise.all([
    loadProjectInfo(ctx, picked.projectId, { withGroups: Boolean(groupName) }),
    resolveAssignees(
      ctx,
      people.ids.map((slackUserId) => ({ slackUserId })),
    ),
  ]);
  if (!assignees.ok) {
    // Said to the workflow's people, who can fix it: who is missing, and how to add them.
    const unmatched = /is not a user of|no e-mail address/.test(assignees.error);
    return {
      error: unmatched
        ? `${assignees.error} Add them to the work-management service with their Slack e-mail, or have a Slack admin link them with “/work link @person <their service e-mail>”.`
        : assignees.error,
    };
  }
  const group = groupName ? groupNamed(project, groupName) : undefined;
  if (group && 'error' in group) return { error: group.error };

  const changes = taskChanges(ctx);
  const created = await changes.create(
    by,
    {
      projectId: project.id,
      name: title,
      ...(description ? { description } : {}),
      ...(assignees.ids.length ? { taskUsers: assignees.ids } : {}),
      ...(dueDate ? { dueDate } : {}),
      ...(priority !== undefined ? { priority } : {}),
      ...(group ? { groupId: group.id } : {}),
    },
    { projectName: project.name },
  );
  if (!created.task) {
    return {
      error: `The task was created in ${esc(project.name)}, but the service did not return its id, so this step has no outputs to give.`,
    };
  }
  const facts = factsFromTask(created.task);
  changes.shown(by, { ...facts, projectId: facts.projectId || project.id });
  return {
    outputs: await describeTask(ctx, {
      taskId: facts.taskId,
      name: facts.name || title,
      projectId: facts.projectId || project.id,
      number: facts.number,
    }),
  };
}

/** The project's group with this name (exactly, else the only one it starts). */
function groupNamed(project: ProjectInfo, typed: string): { id: string } | { error: string } {
  const wanted = typed.trim().toLowerCase();
  const named = (test: (name: string) => boolean) =>
    project.groups.filter((g) => test((g.groupName ?? '').trim().toLowerCase()));
  const exact = named((n) => n === wanted);
  const found = exact.length ? exact : named((n) => n.startsWith(wanted));
  if (found.length === 1) return { id: found[0]!.groupId };
  const names = project.groups.map((g) => `“${esc(g.groupName ?? '')}”`).join(', ');
  return {
    error: project.groups.length
      ? `${esc(project.name)} has no single group called “${esc(typed)}”; its groups are ${names}. ${NOTHING}`
      : `${esc(project.name)} has no task groups, so “${esc(typed)}” cannot be used. ${NOTHING}`,
  };
}
