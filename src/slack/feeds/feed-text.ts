/**
 * What a channel feed says, as pure functions: the reply in a task card's thread for each
 * later activity ("✅ <@bob> completed this task."), and the summary a burst of new tasks
 * becomes ("15 more new tasks in *Website* this minute: …"), edited as more arrive.
 */
import type { KnownBlock } from '@slack/types';
import type { Actor, FieldChange, TaskActivity } from '../../activity/hub.js';
import { PRIORITY_NAMES } from '../../workapi/contract.js';
import { formatDueDate } from '../format/date-text.js';
import { cut, esc, plural } from '../format/text.js';
import { context, section } from '../ui/blocks.js';
import { LIMIT } from '../ui/limits.js';

const SLACK_ID = /^[UW][A-Z0-9_]+$/;
const MENTION = /^<@[UW][A-Z0-9_]+>$/;

/** Who acted, unescaped: '<@U…>' for a Slack user, else a name (as task_messages keep it). */
export function actorLabel(actor: Actor | undefined): string | undefined {
  if (actor?.slackUserId && SLACK_ID.test(actor.slackUserId)) return `<@${actor.slackUserId}>`;
  return actor?.name?.trim() || undefined;
}

/** A person as a message shows them: a mention kept, a name escaped. */
export function shownName(label: string): string {
  return MENTION.test(label) ? label : esc(label);
}

/** Longest comment quoted in a thread reply. */
export const QUOTE_CHARS = 300;

/** The thread reply for an activity; undefined for kinds that are not replied ('created'). */
export function threadReplyText(
  activity: TaskActivity,
  /** Who acted, unescaped (actorLabel). */
  who: string | undefined,
  /** 'assigned': the people added; 'changed': those removed (mentions or names, unescaped). */
  added: readonly string[] = [],
  /** How the task is named: in its thread "this task"; in the channel its bold name. */
  subject = 'this task',
): string | undefined {
  const where = 'where' in activity ? activity.where : undefined;
  const by = who ? shownName(who) : where ? `Someone ${where}` : 'Someone';
  const on = subject === 'this task' ? '' : ` on ${subject}`;
  switch (activity.kind) {
    case 'commented': {
      const text = activity.text.trim();
      const quoted = cut(text, QUOTE_CHARS)
        .split('\n')
        .map((line) => `>${esc(line)}`)
        .join('\n');
      return text ? `💬 ${by} commented${on}:\n${quoted}` : `💬 ${by} commented${on}.`;
    }
    case 'completed':
      return `✅ ${by} completed ${subject}.`;
    case 'reopened':
      return `↩️ ${by} reopened ${subject}.`;
    case 'assigned':
      return added.length
        ? `👤 ${by} assigned ${added.map(shownName).join(', ')}${on ? ` to ${subject}` : ''}.`
        : undefined;
    case 'changed': {
      const what = activity.fields.map((f) => fieldText(f, added)).filter(Boolean);
      return what.length ? `✏️ ${by} changed ${subject}: ${what.join('; ')}.` : undefined;
    }
    default:
      return undefined;
  }
}

/** One changed field in words; `people` are the labels of those removed (unassigned). */
function fieldText(f: FieldChange, people: readonly string[]): string {
  const value = (v: string | number | undefined) => {
    if (v === undefined || v === '') return 'none';
    if (f.field === 'dueDate') return formatDueDate(String(v));
    if (f.field === 'priority') return PRIORITY_NAMES[Number(v)] ?? String(v);
    return `*${esc(cut(String(v), 120))}*`;
  };
  switch (f.field) {
    case 'name':
      return `renamed to ${value(f.to)}`;
    case 'dueDate':
      return `due ${value(f.to)} (was ${value(f.from)})`;
    case 'priority':
      return `priority ${value(f.to)} (was ${value(f.from)})`;
    case 'status':
      return `status ${value(f.to)} (was ${value(f.from)})`;
    case 'group':
      return `moved to group ${value(f.to)}`;
    case 'unassigned':
      return people.length ? `removed ${people.map(shownName).join(', ')}` : 'removed assignees';
  }
}

/** A task named in a channel line: "*Fix login*" (its id when it could not be read). */
export function taskLabel(task: { taskName?: string } | undefined, taskId: string): string {
  const name = task?.taskName?.replace(/\s+/g, ' ').trim();
  return name ? `*${esc(cut(name, 120))}*` : `task \`${taskId}\``;
}

export interface SummaryEntry {
  taskId: string;
  name: string;
  number?: number;
}

/** Lines a summary lists before "…and N more". */
export const SUMMARY_LINES = 40;

/** The burst summary: one message listing the tasks the feed did not post one by one. */
export function summaryMessage(
  entries: readonly SummaryEntry[],
  projectName: string | undefined,
): { text: string; blocks: KnownBlock[] } {
  const project = projectName ? ` in *${esc(cut(projectName, 150))}*` : '';
  const head = `🗂️ ${plural(entries.length, 'more new task')}${project} in a short while, listed here instead of one card each:`;
  // Whole lines only, as many as fit one section with the "…and N more" after them: the
  // count the summary gives is the count it shows.
  const all = entries.map((e) => {
    const name = esc(cut(e.name.replace(/\s+/g, ' ').trim() || 'Untitled task', 120));
    return `• ${e.number !== undefined ? `#${e.number} ${name}` : `${name} (\`${e.taskId}\`)`}`;
  });
  const lines: string[] = [];
  let size = 0;
  for (const line of all.slice(0, SUMMARY_LINES)) {
    if (size + line.length + 1 > LIMIT.text - 100) break;
    lines.push(line);
    size += line.length + 1;
  }
  const more = all.length - lines.length;
  if (more > 0) lines.push(`…and ${more} more: \`/work list\` shows them all.`);
  return {
    text: `${plural(entries.length, 'more new task')}${project} in a short while.`,
    blocks: [section(head), section(lines.join('\n')), context('Open one with `/work task #N`.')],
  };
}
