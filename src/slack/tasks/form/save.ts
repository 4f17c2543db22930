/**
 * Saving the task form: read the uploaded files, create (or update) the task, announce it.
 * The outcome is a value, never a thrown error, so the submission listener can race it
 * against Slack's 3-second window and report it either in the modal or afterwards.
 */
import { isWorkApiError } from '../../../workapi/client.js';
import type { CreateTaskBody } from '../../../workapi/contract.js';
import type { Acting } from '../../context/acting.js';
import { errorText } from '../../context/error-replies.js';
import type { WorkContext } from '../../context/work-context.js';
import { esc, listing } from '../../format/text.js';
import { taskChanges } from '../changes.js';
import { factsFromTask, type TaskFacts } from '../facts.js';
import { FileReadError, readSlackFiles } from '../files.js';
import { blockForServiceError, errorBlock, type TaskFormCheck } from './read.js';
import type { TaskFormMeta } from './task-form-meta.js';

export type SaveOutcome =
  /** `facts` is undefined when the service said it saved, but not what. */
  | {
      kind: 'saved';
      facts?: TaskFacts;
      sentence: string;
      created: boolean;
      /** Who could not be told of a new task ('' when all were, or on edits). */
      notifyProblem?: string;
    }
  /** Problems to show under the fields (the service's 400 verbatim, unreadable files). */
  | { kind: 'invalid'; errors: Record<string, string>; message: string }
  /**
   * `headline` says what became of the task when `message` alone does not; `unconfirmed`: a
   * create the service did not confirm, which may have landed (see follow-up.ts).
   */
  | {
      kind: 'failed';
      message: string;
      headline?: string;
      unconfirmed?: Pick<CreateTaskBody, 'projectId' | 'name'>;
    };

type Ok = Extract<TaskFormCheck, { ok: true }>;

export async function saveTaskForm(
  ctx: WorkContext,
  by: Acting,
  meta: TaskFormMeta,
  check: Ok,
): Promise<SaveOutcome> {
  const edit = meta.mode === 'edit';
  const changes = taskChanges(ctx);
  try {
    if (edit) {
      const taskId = meta.taskId ?? '';
      const { facts: updated } = await changes.save(by, taskId, check.body, {
        statusChanged: check.body.statusId !== undefined,
      });
      const what = check.changed.length ? `: changed ${listing(check.changed)}` : '';
      const name = updated?.name ? `*${esc(updated.name)}*` : `task \`${taskId}\``;
      return { kind: 'saved', facts: updated, sentence: `Saved ${name}${what}.`, created: false };
    }
    const body: CreateTaskBody = { ...check.body };
    if (check.fileIds.length) {
      body.files = [...(body.files ?? []), ...(await readSlackFiles(ctx, check.fileIds))];
    }
    const created = await changes.create(by, body);
    return {
      kind: 'saved',
      // Get task has no status id; the one asked for is the one the task has.
      facts: created.task && { ...factsFromTask(created.task), statusId: body.statusId },
      sentence: created.sentence,
      created: true,
      notifyProblem: created.notifyProblem,
    };
  } catch (e) {
    if (e instanceof FileReadError) {
      return {
        kind: 'invalid',
        errors: { [errorBlock('files', meta)]: e.message },
        message: e.message,
      };
    }
    // The service's (or the contract's) "field: problem", verbatim under that field.
    if (isWorkApiError(e) && e.kind === 'invalid') {
      return {
        kind: 'invalid',
        errors: { [blockForServiceError(e.message, meta)]: e.message },
        message: e.message,
      };
    }
    const message = errorText(ctx, e, {
      action: edit ? 'save the task' : 'create the task',
      id: meta.taskId,
      checkWith: edit ? `\`/work task ${meta.taskId}\`` : '`/work list`',
    });
    const unconfirmed =
      !edit && mayHaveLanded(e)
        ? { projectId: check.body.projectId, name: check.body.name }
        : undefined;
    return { kind: 'failed', message, unconfirmed };
  }
}

/** Whether a failed create may still have created the task. */
export function mayHaveLanded(e: unknown): boolean {
  return (
    isWorkApiError(e) &&
    e.operation === 'createTask' &&
    !e.notSent &&
    (e.kind === 'timeout' || e.kind === 'network' || (e.kind === 'server' && e.status >= 500))
  );
}
