/**
 * `/work task|edit|done|comment|assign <task> …`: the task is an id, `#12` or words (see
 * find-task.ts). One match acts at once; several answer a pick list whose buttons finish the
 * command (`finishPicked`); none says so and offers `/work new`.
 */
import type { KnownBlock } from '@slack/types';
import { requireActing } from '../context/acting.js';
import { orDebug, runSafely } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { esc, plainText } from '../format/text.js';
import { parseQuickAdd } from '../parse/quick-add.js';
import { userName, workspaceUsers } from '../people/service-users.js';
import { ACTION } from '../ui/block-ids.js';
import { section } from '../ui/blocks.js';
import { resolveAssignees } from './assignees.js';
import { taskCardData } from './card/load.js';
import { taskButton, taskCard, taskCardText } from './card/task-card.js';
import { taskChanges } from './changes.js';
import { completionSentence, replyCompletionError } from './complete.js';
import { factsFromTask } from './facts.js';
import { findTask, parseTaskRef, type TaskRef } from './find-task.js';
import { openTaskForm } from './form/open.js';
import { numbered, type PickValue, pickListMessage, type TaskVerb } from './pick-list.js';

export const TASK_VERB_USAGE: Record<TaskVerb, string> = {
  task: 'task <task>',
  edit: 'edit <task>',
  done: 'done <task>',
  comment: 'comment <task>: <text>',
  assign: 'assign <task> @person…',
};

/** Pick-list buttons carry the rest of the command; Slack allows 2,000 characters a value. */
const MAX_CARRIED = 1_800;

const HOW =
  'Name the task by words of its name, `#12` (in a channel linked to its project, or `#12 in <project name>`), or its id';

/** The `/work <verb> …` subcommand body. */
export async function runTaskVerb(ctx: WorkContext, verb: TaskVerb, text: string): Promise<void> {
  const split = splitArgs(verb, text);
  if ('problem' in split) {
    await ctx.reply(split.problem);
    return;
  }
  const found = await findTask(ctx, split.ref, { openOnly: verb === 'done' || verb === 'assign' });
  if (found.kind === 'none') {
    // `/work done` on a task that is done already: say so (and offer Reopen), not "no task".
    if (verb === 'done' && (await alreadyDone(ctx, split.ref))) return;
    await ctx.reply(found.message);
    return;
  }
  if (found.kind === 'one') {
    await actOn(ctx, verb, found.taskId, split.rest);
    return;
  }
  if (split.rest.length > MAX_CARRIED) {
    await ctx.reply(
      `Several tasks match, and this is too long to carry through a pick list. Name the task by \`#number\` or id. Nothing was changed.`,
    );
    return;
  }
  const users = await workspaceUsers(ctx).catch(orDebug(ctx.logger, 'Service users', []));
  const names = (ids: string[]) =>
    ids.map((id) => {
      const u = users.find((x) => x.id === id);
      return u ? userName(u) : id;
    });
  await ctx.reply(
    pickListMessage({
      verb,
      rest: split.rest,
      total: found.total,
      tasks: await Promise.all(
        found.tasks.map(async (t) => ({
          taskId: t.taskId,
          number: t.number,
          name: t.name,
          projectName:
            (await ctx.store.knownProjects.get(ctx.teamId, t.projectId))?.projectName ??
            t.projectId,
          done: t.done,
          assignees: names(t.assigneeIds),
          url: ctx.deps.links.task(ctx.teamId, t),
        })),
      ),
    }),
  );
}

/** When the words name one done task (and no open one): says so, with Reopen. */
async function alreadyDone(ctx: WorkContext, ref: TaskRef): Promise<boolean> {
  const any = await findTask(ctx, ref);
  if (any.kind !== 'one' || !any.task?.done) return false;
  const name = `*${esc(numbered(any.task.name || 'Untitled task', any.task.number))}*`;
  const text = `${name} is already done. Nothing was changed.`;
  await ctx.reply({
    text,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text },
        accessory: taskButton(any.taskId, 'Reopen', ACTION.taskReopen),
      },
    ],
  });
  return true;
}

/** A pick-list button: the command, finished with the chosen task. */
export async function finishPicked(ctx: WorkContext, value: PickValue): Promise<void> {
  await actOn(ctx, value.verb, value.taskId, value.rest);
}

type Split = { ref: TaskRef; rest: string } | { problem: string };

/** The task reference and what follows it, per verb. */
export function splitArgs(verb: TaskVerb, raw: string): Split {
  const text = raw.trim();
  const usage = `\`/work ${TASK_VERB_USAGE[verb]}\``;
  if (!text) return { problem: `${HOW}, like ${usage}.` };
  if (verb === 'comment') {
    const first = text.split(/\s+/, 1)[0]!;
    const firstRef = parseTaskRef(first);
    let ref: TaskRef | undefined;
    let rest = '';
    if (firstRef && firstRef.kind !== 'words' && !/^\S+\s+in\s/i.test(text)) {
      ref = firstRef;
      rest = text.slice(first.length);
    } else if (text.includes(':')) {
      ref = parseTaskRef(text.slice(0, text.indexOf(':')));
      rest = text.slice(text.indexOf(':') + 1);
    }
    if (!ref) {
      return {
        problem: `Put a colon between the task and the comment, like \`/work comment Fix login: Looks good\` (or start with \`#12\` or the task id). Nothing was posted.`,
      };
    }
    return { ref, rest: rest.trim() };
  }
  if (verb === 'assign') {
    const at = text.search(/(^|\s)(<@|@)/);
    const ref = at > 0 ? parseTaskRef(text.slice(0, at)) : undefined;
    if (!ref) {
      return {
        problem: `Name the task, then the people: ${usage}, like \`/work assign #12 @bob\`. Nothing was changed.`,
      };
    }
    return { ref, rest: text.slice(at).trim() };
  }
  const ref = parseTaskRef(text);
  return ref ? { ref, rest: '' } : { problem: `${HOW}, like ${usage}.` };
}

async function actOn(ctx: WorkContext, verb: TaskVerb, taskId: string, rest: string) {
  switch (verb) {
    case 'task':
      await runSafely(ctx, { action: 'load the task', id: taskId }, async () => {
        const data = await taskCardData(ctx, factsFromTask(await ctx.work.getTask(taskId)));
        await ctx.reply({ text: taskCardText(data), blocks: taskCard(data) });
      });
      return;
    case 'edit':
      await openTaskForm(ctx, { mode: 'edit', taskId });
      return;
    case 'done': {
      const by = await requireActing(ctx);
      if (!by) return;
      try {
        const done = await taskChanges(ctx).complete(by, taskId);
        const sentence = completionSentence(done);
        const data = await taskCardData(ctx, done.facts, done.project);
        const blocks: KnownBlock[] = [section(sentence), ...taskCard(data)];
        await ctx.reply({ text: sentence, blocks });
      } catch (e) {
        await replyCompletionError(ctx, e, taskId);
      }
      return;
    }
    case 'comment':
      await comment(ctx, taskId, rest);
      return;
    case 'assign':
      await assign(ctx, taskId, rest);
  }
}

async function comment(ctx: WorkContext, taskId: string, typed: string): Promise<void> {
  // As typed (line breaks kept), Slack's markup made plain.
  const text = plainText(typed).trim();
  if (!text) {
    await ctx.reply(
      'Write the comment after the task, like `/work comment #12 Looks good to me`. Nothing was posted.',
    );
    return;
  }
  if (text.length > 9_000) {
    await ctx.reply('That comment is longer than 9,000 characters. Nothing was posted.');
    return;
  }
  const by = await requireActing(ctx);
  if (!by) return;
  await runSafely(
    ctx,
    { action: 'post the comment', id: taskId, checkWith: `\`/work task ${taskId}\`` },
    async () => {
      const { task } = await taskChanges(ctx).comment(by, taskId, text);
      await ctx.reply(`Added your comment to *${esc(task?.taskName || taskId)}*.`);
    },
  );
}

/** Adds assignees (update task replaces the set, so the current ones are kept). */
async function assign(ctx: WorkContext, taskId: string, typed: string): Promise<void> {
  const parsed = parseQuickAdd(`task ${typed}`);
  const people = parsed.ok ? parsed.value.assignees : [];
  if (people.length === 0) {
    await ctx.reply('Name who to assign, like `/work assign #12 @bob`. Nothing was changed.');
    return;
  }
  const resolved = await resolveAssignees(ctx, people);
  if (!resolved.ok) {
    await ctx.reply(resolved.error.replace(/([Nn])othing was created/g, '$1othing was changed'));
    return;
  }
  const by = await requireActing(ctx);
  if (!by) return;
  await runSafely(ctx, { action: 'assign the task', id: taskId }, async () => {
    const { task, added } = await taskChanges(ctx).assign(by, taskId, resolved.ids);
    const name = `*${esc(task.taskName || taskId)}*`;
    if (added.length === 0) {
      await ctx.reply(`Everyone named is already assigned to ${name}; nothing was changed.`);
      return;
    }
    const users = await workspaceUsers(ctx).catch(orDebug(ctx.logger, 'Service users', []));
    const who = added.map((id) => esc(users.find((u) => u.id === id)?.name ?? id)).join(', ');
    await ctx.reply(`Assigned ${who} to ${name}.`);
  });
}
