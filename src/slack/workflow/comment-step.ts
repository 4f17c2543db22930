/**
 * "Add a comment": the task named as `/work comment` names it (`#12 in <project>`, id, link),
 * posted as its author: with their own key, or through the workspace key signed with their
 * Slack name as every comment made for someone is.
 */
import { esc } from '../format/text.js';
import { taskChanges } from '../tasks/changes.js';
import type { StepResult, StepRun, StepSpec } from './run-step.js';
import { STEP } from './steps.js';
import { taskFromInput } from './task-input.js';

const NOTHING = 'Nothing was posted.';

export const addCommentStep: StepSpec<'add_comment'> = {
  step: STEP.addComment,
  actorInput: 'author',
  run: addComment,
};

async function addComment(run: StepRun): Promise<StepResult<'add_comment'>> {
  const { ctx, by, inputs } = run;
  const text = inputs.text('text');
  if (!text) return { error: `The comment is empty: map a value into “Comment”. ${NOTHING}` };
  if (text.length > 9_000) {
    return { error: `The comment is longer than 9,000 characters. ${NOTHING}` };
  }
  if (!ctx.userId) {
    const given = inputs.text('author');
    return {
      error: given
        ? `“${esc(given)}” in “Author” is not a Slack user: map a person into it. ${NOTHING}`
        : `No author was given: map a person into “Author” (for example “Person who used this workflow”). ${NOTHING}`,
    };
  }
  const found = await taskFromInput(ctx, inputs.text('task'));
  if (!found.ok) return { error: `${found.error} ${NOTHING}` };
  const { taskId } = found;
  run.about = taskId;
  // Through the person's own key the service names them; else the comment is signed.
  const posted = await taskChanges(ctx).comment(by, taskId, text);
  return {
    outputs: { task_id: taskId, ...(posted.commentId ? { comment_id: posted.commentId } : {}) },
  };
}
