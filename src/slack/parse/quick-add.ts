/**
 * `/work add <title> [@user…] [due:<date>] [p:<priority>] [in:<project>]`: the quick-create
 * syntax. Tokens may stand anywhere; what is not a token is the title, in order. A date may
 * run on over a few words (`due:next week`, `due:in 3 days`) as long as they read as one date.
 * Slack sends mentions escaped (`<@U123|bob>`) when the command has `should_escape: true`;
 * `@bob` and `@bob@example.com` typed plainly are kept as handles for the service's users.
 */
import { PRIORITY_NAMES, priorityNumber } from '../../workapi/contract.js';
import { decodeSlackEntities } from '../format/text.js';
import { isDatePhrase } from './due-date.js';

export type Assignee = { slackUserId: string } | { handle: string };

export interface QuickAdd {
  title: string;
  assignees: Assignee[];
  /** The raw date text after `due:`; resolve with parseDueDate in the user's time zone. */
  due?: string;
  priority?: number;
  /** The project named with `in:` (an id or a project's name), as typed. */
  project?: string;
}

export type QuickAddParse = { ok: true; value: QuickAdd } | { ok: false; error: string };

const PRIORITY_HELP = `Use p:0–4 or p:${PRIORITY_NAMES.map((n) => n.toLowerCase().replace(' ', '-')).join(', p:')}.`;

export function parseQuickAdd(text: string): QuickAddParse {
  const assignees: Assignee[] = [];
  const words: string[] = [];
  let due: string | undefined;
  let priority: number | undefined;
  let project: string | undefined;
  // Keep quoted dates like due:"next friday" together.
  const tokens = text.match(/(?:due|in):"[^"]*"|<[^>]+>|\S+/g) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const mention = /^<@([UW][A-Z0-9_]+)(\|[^>]*)?>$/.exec(token);
    if (mention) {
      assignees.push({ slackUserId: mention[1]! });
    } else if (/^@[^\s@][^\s]*$/.test(token)) {
      assignees.push({ handle: token.slice(1) });
    } else if (/^due:/i.test(token)) {
      due = token.slice(4).replace(/^"|"$/g, '');
      if (!due)
        return { ok: false, error: 'due: needs a date, like due:tomorrow or due:2026-12-01.' };
      if (!token.startsWith('due:"')) {
        const more = dateWordsAfter(due, tokens.slice(i + 1, i + 1 + MAX_DATE_WORDS));
        due = [due, ...tokens.slice(i + 1, i + 1 + more)].join(' ');
        i += more;
      }
    } else if (/^in:/i.test(token)) {
      project = decodeSlackEntities(token.slice(3).replace(/^"|"$/g, '')).trim();
      if (!project)
        return {
          ok: false,
          error: 'in: needs a project, like in:"Website relaunch" or in:<projectId>.',
        };
    } else if (/^(p|priority):/i.test(token)) {
      const raw = token.slice(token.indexOf(':') + 1).replace(/-/g, ' ');
      priority = priorityNumber(raw);
      if (priority === undefined)
        return { ok: false, error: `"${token}" is not a priority. ${PRIORITY_HELP}` };
    } else {
      words.push(token);
    }
  }
  // Decoded after tokenizing, so a typed "&lt;@U1&gt;" stays text and never becomes a mention.
  const title = decodeSlackEntities(words.join(' ')).trim();
  if (!title)
    return {
      ok: false,
      error: 'Give the task a title: `/work add Fix the login page @bob due:friday p:high`.',
    };
  if (title.length > 500) return { ok: false, error: 'The title is longer than 500 characters.' };
  return { ok: true, value: { title, assignees, due, priority, project } };
}

/** How many more words a `due:` date may take ("due:in 3 days"). */
const MAX_DATE_WORDS = 3;

/** How many of `next` (0 to all) continue `start` as one date phrase; the longest wins. */
function dateWordsAfter(start: string, next: string[]): number {
  let taken = 0;
  for (let n = 1; n <= next.length; n++) {
    const words = next.slice(0, n);
    // Mentions and other tokens end the date.
    if (words.some((w) => /^[<@]/.test(w) || /^(due|in|p|priority):/i.test(w))) break;
    if (isDatePhrase([start, ...words].join(' '))) taken = n;
  }
  return taken;
}
