/**
 * What a channel feed hears (`/work feed on [created] [done] [comments] [assigned] [changes]
 * [priority:high+] [group:<name>] [assignee:@person] [label:<name>]`): the words read into a
 * choice, the choice said in one line, and whether a task or an activity gets through. Pure:
 * the command (commands.ts) resolves the assignee and stores the choice; the feed listener
 * (channel-feeds.ts) asks `hears` and `passes`.
 */
import { z } from 'zod';
import type { TaskActivity } from '../../activity/hub.js';
import {
  DEFAULT_FEED_EVENTS,
  FEED_EVENTS,
  type FeedEvent,
  type FeedFilters,
} from '../../store/index.js';
import { PRIORITY_NAMES, priorityNumber, type Task } from '../../workapi/contract.js';
import { esc } from '../format/text.js';
import type { Assignee } from '../parse/quick-add.js';

/** What the words say; the assignee still to be matched to a service user. */
export interface ParsedFeedWords {
  events: FeedEvent[];
  filters: Omit<FeedFilters, 'assignee'>;
  assignee?: Assignee;
}

const EVENT_WORDS: Record<string, FeedEvent> = {
  created: 'created',
  new: 'created',
  done: 'done',
  completed: 'done',
  comments: 'comments',
  comment: 'comments',
  assigned: 'assigned',
  assignments: 'assigned',
  changes: 'changes',
  changed: 'changes',
};

const FILTER_HELP =
  'filters are `priority:high+`, `group:<name>`, `assignee:@person` and `label:<name>`';
export const FEED_WORDS_HELP = `what to hear is any of ${FEED_EVENTS.map((e) => `\`${e}\``).join(', ')}; ${FILTER_HELP}`;

/** Reads the words after `/work feed on` (and `sync`, taken off by the caller). */
export function parseFeedWords(
  words: readonly string[],
): { ok: true; value: ParsedFeedWords } | { ok: false; error: string } {
  const events = new Set<FeedEvent>();
  const filters: ParsedFeedWords['filters'] = {};
  let assignee: Assignee | undefined;
  for (const word of words) {
    const event = EVENT_WORDS[word.toLowerCase()];
    if (event) {
      events.add(event);
      continue;
    }
    const m = /^(priority|p|group|assignee|label):(.+)$/i.exec(word);
    if (!m)
      return {
        ok: false,
        error: `\`${esc(word.replace(/`/g, ''))}\` is not something a feed can hear: ${FEED_WORDS_HELP}.`,
      };
    const value = m[2] ?? '';
    switch ((m[1] ?? '').toLowerCase()) {
      case 'priority':
      case 'p': {
        const priority = readPriority(value);
        if (!priority) {
          return {
            ok: false,
            error: `\`${esc(word.replace(/`/g, ''))}\` is not a priority: use urgent, high, medium or low, with \`+\` for that or more urgent (\`priority:high+\`).`,
          };
        }
        filters.priority = priority;
        break;
      }
      case 'group':
        filters.group = unquote(value);
        break;
      case 'label':
        filters.label = unquote(value);
        break;
      default: {
        const mention = /^<@([UW][A-Z0-9_]+)(\|[^>]*)?>$/.exec(value);
        if (mention) assignee = { slackUserId: mention[1]! };
        else if (/^@[^\s@]\S*$/.test(value)) assignee = { handle: value.slice(1) };
        else return { ok: false, error: '`assignee:` needs a person, like `assignee:@bob`.' };
      }
    }
  }
  return {
    ok: true,
    value: {
      events: events.size ? FEED_EVENTS.filter((e) => events.has(e)) : [...DEFAULT_FEED_EVENTS],
      filters,
      ...(assignee ? { assignee } : {}),
    },
  };
}

const unquote = (v: string) => v.replace(/^"|"$/g, '').replace(/_/g, ' ').trim();

function readPriority(value: string): { level: number; orMore: boolean } | undefined {
  const orMore = value.endsWith('+');
  const word = (orMore ? value.slice(0, -1) : value).toLowerCase();
  const byName = PRIORITY_NAMES.findIndex((n) => n.toLowerCase() === word);
  const level = /^[1-4]$/.test(word) ? Number(word) : byName;
  return level >= 1 && level <= 4 ? { level, orMore } : undefined;
}

/** The choice in one line: "new tasks, completions and comments, of tasks with priority high or more urgent". */
export function describeChoice(events: readonly FeedEvent[], filters: FeedFilters): string {
  const names: Record<FeedEvent, string> = {
    created: 'new tasks',
    done: 'completions',
    comments: 'comments',
    assigned: 'assignments',
    changes: 'other changes',
  };
  const heard = events.map((e) => names[e]);
  const list =
    heard.length <= 1
      ? (heard[0] ?? 'nothing')
      : `${heard.slice(0, -1).join(', ')} and ${heard.at(-1)}`;
  const only: string[] = [];
  if (filters.priority) {
    const name = PRIORITY_NAMES[filters.priority.level]?.toLowerCase();
    only.push(`priority ${name}${filters.priority.orMore ? ' or more urgent' : ''}`);
  }
  if (filters.group) only.push(`in group “${filters.group}”`);
  if (filters.assignee) {
    only.push(
      `assigned to ${filters.assignee.slackUserId ? `<@${filters.assignee.slackUserId}>` : 'one person'}`,
    );
  }
  if (filters.label) only.push(`labelled “${filters.label}”`);
  return only.length ? `${list}, only of tasks ${only.join(', ')}` : `${list}, of every task`;
}

/** Which of a feed's kinds an activity is (undefined: none a feed tells). */
export function feedEventOf(a: TaskActivity): FeedEvent | undefined {
  switch (a.kind) {
    case 'created':
      return 'created';
    case 'completed':
    case 'reopened':
      return 'done';
    case 'commented':
      return 'comments';
    case 'assigned':
      return 'assigned';
    default:
      return 'changes';
  }
}

/** What the filters look at of a task. */
export interface FilterFacts {
  priority?: number;
  groupName?: string;
  assigneeIds: readonly string[];
  /** Label names or ids, when the service told them. */
  labels?: readonly string[];
}

/** What the filters look at, from a task answer. */
export function filterFactsOf(task: Task): FilterFacts {
  return {
    priority: priorityNumber(task.priority),
    groupName: task.group ?? undefined,
    assigneeIds: (task.taskUsers ?? []).map((u) => u.taskUserId),
    labels: labelsOf(task),
  };
}

export function passes(filters: FeedFilters, task: FilterFacts): boolean {
  const fold = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  if (filters.priority) {
    const p = task.priority ?? 0;
    const { level, orMore } = filters.priority;
    if (p === 0 || (orMore ? p > level : p !== level)) return false;
  }
  if (filters.group && fold(filters.group) !== fold(task.groupName)) return false;
  if (filters.assignee && !task.assigneeIds.includes(filters.assignee.serviceUserId)) return false;
  if (filters.label && !(task.labels ?? []).some((l) => fold(l) === fold(filters.label))) {
    return false;
  }
  return true;
}

const Labelled = z.looseObject({
  labels: z.array(z.unknown()).optional().catch(undefined),
  Labels: z.array(z.unknown()).optional().catch(undefined),
});

/**
 * The labels a task answer tells, by name or id: the documented Task has none; update
 * answers carry `Labels` (ids), and some answers `labels` (names or `{name}` objects).
 */
export function labelsOf(answer: unknown): string[] | undefined {
  const parsed = Labelled.safeParse(answer);
  if (!parsed.success) return undefined;
  const raw = parsed.data.labels ?? parsed.data.Labels;
  if (!raw) return undefined;
  return raw.flatMap((l) => {
    if (typeof l === 'string') return [l];
    const named = z
      .looseObject({
        name: z.string().optional(),
        Name: z.string().optional(),
        _id: z.string().optional(),
      })
      .safeParse(l);
    return named.success
      ? [named.data.name ?? named.data.Name ?? named.data._id ?? ''].filter(Boolean)
      : [];
  });
}
