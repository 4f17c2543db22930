/**
 * Task subcommands of `/work`: new, add, list, task, edit, done, comment (`taskCommands`,
 * handed to the router by src/slack/app.ts); the router has acked and checked the
 * connection already.
 */
import type { Subcommand, SubcommandArgs } from '../commands/router.js';
import { replyError, runSafely } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { formatDueDate } from '../format/date-text.js';
import { esc, plainText } from '../format/text.js';
import { type DateParse, parseDueDate } from '../parse/due-date.js';
import { parseQuickAdd } from '../parse/quick-add.js';
import { taskIdProblem } from '../parse/service-id.js';
import { channelProjectId } from '../shared/project-context.js';
import { noProjectHere, pickProject } from '../shared/project-here.js';
import { section } from '../ui/blocks.js';
import { resolveAssignees } from './assignees.js';
import { postLiveCard } from './card/live-post.js';
import { taskCardData } from './card/load.js';
import { taskCard, taskCardText } from './card/view.js';
import { authoredContent } from './comment/authored.js';
import { completeTask, completionSentence, replyCompletionError } from './complete.js';
import { createTaskFromSlack } from './create.js';
import { factsFromTask, taskChanged } from './facts.js';
import { openTaskForm } from './form/open.js';
import { loadListPage, parseListArgs } from './list/load.js';
import { taskListMessage } from './list/view.js';
import { loadProjectInfo } from './project-info.js';

const EXAMPLE_ID = '65a1f0c2e4b0a1b2c3d4e5f6';

const newCommand: Subcommand = {
  name: 'new',
  group: 'Tasks',
  usage: 'new [title]',
  example: 'new Fix the login page',
  summary: 'create a task in a form (every field)',
  async run(ctx, args) {
    // As typed: Slack escapes &, < and > in command text and sends mentions as markup.
    const name = plainText(args.text).trim();
    await openTaskForm(ctx, { mode: 'create', values: name ? { name } : {} });
  },
};

const addCommand: Subcommand = {
  name: 'add',
  group: 'Tasks',
  usage: 'add <title> [@user…] [due:<date>] [p:<priority>] [in:<project>]',
  example: 'add Fix the login page @bob due:next week p:high',
  summary: 'create a task in this channel’s project in one step',
  run: quickAdd,
};

async function quickAdd(ctx: WorkContext, args: { text: string }): Promise<void> {
  const parsed = parseQuickAdd(args.text);
  if (!parsed.ok) {
    await ctx.reply(`${parsed.error} Nothing was created.`);
    return;
  }
  const { title, assignees, due, priority } = parsed.value;
  const picked = parsed.value.project ? pickProject(ctx, parsed.value.project) : undefined;
  if (picked && !picked.ok) {
    await ctx.reply(picked.error);
    return;
  }
  const projectId = picked?.projectId ?? channelProjectId(ctx);
  if (!projectId) {
    await ctx.reply(noProjectHere(ctx, { name: '/work add', creates: true }));
    return;
  }
  let dueDate: string | undefined;
  const notes: string[] = [];
  if (due) {
    const date = parseDueDate(due, await ctx.userTimeZone());
    if (!date.ok) {
      await ctx.reply(`${date.error} Nothing was created.`);
      return;
    }
    dueDate = date.date;
    notes.push(dueDateNote(due, date));
  }
  const [project, people] = await Promise.all([
    loadProjectInfo(ctx, projectId).catch((e: unknown) => e as Error),
    resolveAssignees(ctx, assignees),
  ]);
  if (project instanceof Error) {
    await replyError(ctx, project, { action: 'load this channel’s project', id: projectId });
    return;
  }
  if (!people.ok) {
    await ctx.reply(people.error);
    return;
  }
  let created: Awaited<ReturnType<typeof createTaskFromSlack>>;
  try {
    created = await createTaskFromSlack(
      ctx,
      {
        projectId,
        name: title,
        ...(people.ids.length ? { taskUsers: people.ids } : {}),
        ...(dueDate ? { dueDate } : {}),
        ...(priority !== undefined ? { priority } : {}),
      },
      project.name,
    );
  } catch (e) {
    await replyError(ctx, e, { action: 'create the task', checkWith: '`/work list`' });
    return;
  }
  const data = await taskCardData(ctx, factsFromTask(created.task), project);
  // The live card is the confirmation (for everyone in a channel); the person who typed is
  // told more only when there is more to tell (a date read, someone not notified).
  const unposted = await postLiveCard(ctx, data, 'here');
  if (unposted) {
    const sentence = [created.sentence, ...notes].filter(Boolean).join(' ');
    await ctx.reply({ text: sentence, blocks: [section(sentence), ...unposted.blocks] });
    return;
  }
  const told = [created.notifyProblem, ...notes].filter(Boolean).join(' ');
  if (told) await ctx.reply(told);
}

/** What was understood of a typed due date ("Due Fri, Dec 4, 2026 (from “next week”).") */
function dueDateNote(typed: string, date: Extract<DateParse, { ok: true }>): string {
  const understood = date.natural
    ? `Due *${formatDueDate(date.date)}* (from “${esc(plainText(typed))}”).`
    : '';
  const past = date.past
    ? `That due date (${formatDueDate(date.date)}) is in the past; the task has it anyway — change it with \`/work edit\` if that was a slip.`
    : '';
  return [understood, past].filter(Boolean).join(' ');
}

const listCommand: Subcommand = {
  name: 'list',
  group: 'Tasks',
  usage: 'list [open|done|all] [projectId]',
  example: 'list open',
  summary: 'list the tasks of this channel’s project (or another), 20 a page',
  async run(ctx, args) {
    const parsed = parseListArgs(args.words);
    if (!parsed.ok) {
      await ctx.reply(parsed.error);
      return;
    }
    const projectId = parsed.projectId ?? channelProjectId(ctx);
    if (!projectId) {
      await ctx.reply(noProjectHere(ctx, { name: '/work list open <projectId>' }));
      return;
    }
    await runSafely(ctx, { action: 'list the tasks', id: projectId }, async () => {
      const data = await loadListPage(ctx, { projectId, filter: parsed.filter, page: 0 });
      await ctx.reply(taskListMessage(data));
    });
  },
};

const taskCommand: Subcommand = {
  name: 'task',
  group: 'Tasks',
  usage: 'task <taskId>',
  example: `task ${EXAMPLE_ID}`,
  summary: 'show a task card',
  async run(ctx, args) {
    const id = await taskIdArg(ctx, args, 'task <taskId>');
    if (!id) return;
    await runSafely(ctx, { action: 'load the task', id }, async () => {
      const task = await ctx.work.getTask(id);
      const data = await taskCardData(ctx, factsFromTask(task));
      await ctx.reply({ text: taskCardText(data), blocks: taskCard(data) });
    });
  },
};

const editCommand: Subcommand = {
  name: 'edit',
  group: 'Tasks',
  usage: 'edit <taskId>',
  example: `edit ${EXAMPLE_ID}`,
  summary: 'change a task in a form',
  async run(ctx, args) {
    const id = await taskIdArg(ctx, args, 'edit <taskId>');
    if (!id) return;
    await openTaskForm(ctx, { mode: 'edit', taskId: id });
  },
};

const doneCommand: Subcommand = {
  name: 'done',
  group: 'Tasks',
  usage: 'done <taskId>',
  example: `done ${EXAMPLE_ID}`,
  summary: 'mark a task complete',
  async run(ctx, args) {
    const id = await taskIdArg(ctx, args, 'done <taskId>');
    if (!id) return;
    // The sentence and the card; the Mark complete button replaces its card instead.
    try {
      const done = await completeTask(ctx, id);
      if (!done.already) taskChanged(ctx, done.facts);
      const sentence = completionSentence(done);
      const data = await taskCardData(ctx, done.facts, done.project);
      await ctx.reply({ text: sentence, blocks: [section(sentence), ...taskCard(data)] });
    } catch (e) {
      await replyCompletionError(ctx, e, id);
    }
  },
};

const commentCommand: Subcommand = {
  name: 'comment',
  group: 'Tasks',
  usage: 'comment <taskId> <text>',
  example: `comment ${EXAMPLE_ID} Looks good to me`,
  summary: 'comment on a task',
  async run(ctx, args) {
    const taskId = await taskIdArg(ctx, args, 'comment <taskId> <text>');
    if (!taskId) return;
    // The rest of the text as typed (line breaks kept), Slack's markup made plain.
    const text = plainText(args.text.slice(args.text.indexOf(taskId) + taskId.length)).trim();
    if (!text) {
      await ctx.reply(
        `Write the comment after the task id, like \`/work comment ${taskId} Looks good to me\`. Nothing was posted.`,
      );
      return;
    }
    if (text.length > 9_000) {
      await ctx.reply('That comment is longer than 9,000 characters. Nothing was posted.');
      return;
    }
    await runSafely(
      ctx,
      { action: 'post the comment', id: taskId, checkWith: `\`/work task ${taskId}\`` },
      async () => {
        const [task, content] = await Promise.all([
          ctx.work.getTask(taskId),
          authoredContent(ctx, text),
        ]);
        await ctx.work.postComment(taskId, { content });
        taskChanged(ctx, { taskId });
        await ctx.reply(`Added your comment to *${esc(task.taskName || taskId)}*.`);
      },
    );
  },
};

/** The task id a command names, or — after answering why it cannot be one — undefined. */
async function taskIdArg(
  ctx: WorkContext,
  args: SubcommandArgs,
  usage: string,
): Promise<string | undefined> {
  const id = args.words[0];
  const problem = taskIdProblem(id, usage);
  if (problem) {
    await ctx.reply(problem);
    return undefined;
  }
  return id;
}

/** The task subcommands, in the order help lists them. */
export const taskCommands: Subcommand[] = [
  newCommand,
  addCommand,
  listCommand,
  taskCommand,
  editCommand,
  doneCommand,
  commentCommand,
];
