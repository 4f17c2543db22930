/**
 * "Complete a task" and "Reopen a task": the task named as `/work done` names it, changed by
 * the same code as `/work done` and the Reopen button. A task already in the wanted state is
 * not an error: the step completes with its current status.
 */
import { statusWords } from '../format/status-words.js';
import { type Completion, NoDoneStatusError, taskChanges } from '../tasks/changes.js';
import type { StepResult, StepRun, StepSpec } from './run-step.js';
import { STEP } from './steps.js';
import { taskFromInput } from './task-input.js';

export const completeTaskStep: StepSpec<'complete_task'> = {
  step: STEP.completeTask,
  actorInput: 'run_by',
  run: (run) => changeStatus(run, 'complete'),
};

export const reopenTaskStep: StepSpec<'reopen_task'> = {
  step: STEP.reopenTask,
  actorInput: 'run_by',
  run: (run) => changeStatus(run, 'reopen'),
};

async function changeStatus(
  run: StepRun,
  change: 'complete' | 'reopen',
): Promise<StepResult<'complete_task' | 'reopen_task'>> {
  const { ctx, by, inputs } = run;
  const found = await taskFromInput(ctx, inputs.text('task'));
  if (!found.ok) return { error: `${found.error} Nothing was changed.` };
  run.about = found.taskId;
  let done: Completion;
  try {
    done = await taskChanges(ctx)[change](by, found.taskId);
  } catch (e) {
    if (e instanceof NoDoneStatusError) return { error: e.message };
    throw e;
  }
  const current = done.project.statuses.find((s) => s._id === done.facts.statusId);
  return {
    outputs: {
      status: statusWords(done.status?.Name ?? current?.Name, change === 'complete'),
      task_id: found.taskId,
    },
  };
}
