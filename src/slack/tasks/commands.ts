/**
 * Task subcommands of `/work`: new, add, list, task, edit, done, comment (`taskCommands`,
 * handed to the router by src/slack/app.ts); the router has acked and checked the
 * connection already.
 */

import type { Subcommand } from '../commands/router.js';
import { requireActing } from '../context/acting.js';
import { replyError, runSafely } from '../context/error-replies.js';
import { settle } from '../context/submit-budget.js';
import type { WorkContext } from '../context/work-context.js';
import { formatDueDate, pastDueNote } from '../format/date-text.js';
import { esc, plainText } from '../format/text.js';
import { type DateParse, parseDueDate } from '../parse/due-date.js';
import { parseQuickAdd } from '../parse/quick-add.js';
import { projectArgument } from '../projects/pick.js';
import { channelProjectId } from '../shared/project-context.js';
import { noProjectHere, pickProject } from '../shared/project-here.js';
import { section } from '../ui/blocks.js';
import { resolveAssignees } from './assignees.js';
import { postLiveCard } from './card/live-post.js';
import { liveMessage } from './card/live-view.js';
import { taskCardData } from './card/load.js';
import { type Created, taskChanges } from './changes.js';
import { factsFromTask } from './facts.js';
import { openTaskForm } from './form/open.js';
import { loadListPage, parseListArgs } from './list/load.js';
import { taskListMessage } from './list/task-list-page.js';
import { personOfList, replyMine } from './mine/command.js';
import { loadProjectInfo } from './project-info.js';
import { runTaskVerb, TASK_VERB_USAGE } from './task-verbs.js';

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
  // Who creates it, first: someone who may not create is told before anything is looked up.
  const by = await requireActing(ctx);
  if (!by) return;
  const { title, assignees, due, priority } = parsed.value;
  const picked = parsed.value.project ? await pickProject(ctx, parsed.value.project) : undefined;
  if (picked && !picked.ok) {
    await ctx.reply(picked.error);
    return;
  }
  const projectId = picked?.projectId ?? (await channelProjectId(ctx));
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
  const [loaded, people] = await Promise.all([
    settle(loadProjectInfo(ctx, projectId)),
    resolveAssignees(ctx, assignees),
  ]);
  if (!loaded.ok) {
    await replyError(ctx, loaded.error, { action: 'load this channel’s project', id: projectId });
    return;
  }
  const project = loaded.value;
  if (!people.ok) {
    await ctx.reply(people.error);
    return;
  }
  const changes = taskChanges(ctx);
  let created: Created;
  try {
    created = await changes.create(
      by,
      {
        projectId,
        name: title,
        ...(people.ids.length ? { taskUsers: people.ids } : {}),
        ...(dueDate ? { dueDate } : {}),
        ...(priority !== undefined ? { priority } : {}),
      },
      { projectName: project.name },
    );
  } catch (e) {
    await replyError(ctx, e, { action: 'create the task', checkWith: '`/work list`' });
    return;
  }
  if (!created.task) {
    await ctx.reply(created.sentence);
    return;
  }
  const facts = factsFromTask(created.task);
  const data = await taskCardData(ctx, facts, project);
  // The live card is the confirmation (for everyone in a channel; in a feed channel the feed
  // posts it, or lists it in its summary of a burst); the person who typed is told more only
  // when there is more to tell (a date read, someone not notified).
  const placed = await ctx.deps.feeds.placeHere(ctx, data, facts.projectId || projectId);
  const unposted =
    placed === 'card'
      ? undefined
      : placed === 'summary' || placed === 'taken'
        ? liveMessage({ kind: 'card', data, actor: `<@${ctx.userId}>` })
        : await postLiveCard(ctx, data, 'here');
  changes.shown(by, { ...facts, projectId: facts.projectId || projectId });
  if (unposted) {
    const listed =
      placed === 'summary' ? 'It is listed in this channel’s summary of new tasks.' : '';
    const sentence = [created.sentence, listed, ...notes].filter(Boolean).join(' ');
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
  const past = date.past ? pastDueNote(date.date) : '';
  return [understood, past].filter(Boolean).join(' ');
}

const listCommand: Subcommand = {
  name: 'list',
  group: 'Tasks',
  usage: 'list [open|done|all] [project] | list mine | list @someone',
  example: 'list mine',
  summary:
    'list the tasks of this channel’s project (or another), or a person’s open tasks, 20 a page',
  async run(ctx, args) {
    const person = personOfList(args.words, ctx.userId);
    if (person) return replyMine(ctx, person);
    const parsed = parseListArgs(args.words);
    if (!parsed.ok) {
      await ctx.reply(parsed.error);
      return;
    }
    const projectId = parsed.project
      ? await projectArgument(ctx, parsed.project, { command: 'list', rest: parsed.filter })
      : await channelProjectId(ctx);
    if (!projectId) {
      if (!parsed.project)
        await ctx.reply(noProjectHere(ctx, { name: '/work list open <project>' }));
      return;
    }
    await runSafely(ctx, { action: 'list the tasks', id: projectId }, async () => {
      const data = await loadListPage(ctx, { projectId, filter: parsed.filter, page: 0 });
      await ctx.reply(taskListMessage(data));
    });
  },
};

/** The task is an id, #12 (this channel's project, or "#12 in <project>") or words. */
const verbCommands: Subcommand[] = (
  [
    ['task', 'show a task card', 'task Fix login'],
    ['edit', 'change a task in a form', 'edit #12'],
    ['done', 'mark a task complete', 'done #12 in Website'],
    ['comment', 'comment on a task', 'comment Fix login: Looks good to me'],
    ['assign', 'add people to a task', 'assign #12 @bob @carol'],
  ] as const
).map(([verb, summary, example]) => ({
  name: verb,
  group: 'Tasks',
  usage: TASK_VERB_USAGE[verb],
  example,
  summary,
  run: (ctx, args) => runTaskVerb(ctx, verb, args.text),
}));

/** The task subcommands, in the order help lists them. */
export const taskCommands: Subcommand[] = [newCommand, addCommand, listCommand, ...verbCommands];
