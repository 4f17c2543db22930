/**
 * `/work add <title> [@user…] [due:<date>] [p:<priority>]`: the quick-create syntax.
 * Tokens may stand anywhere; what is not a token is the title, in order.
 * Slack sends mentions escaped (`<@U123|bob>`) when the command has `should_escape: true`;
 * `@bob` and `@bob@example.com` typed plainly are kept as handles for the service's users.
 */
import { PRIORITY_NAMES, priorityNumber } from '../../workapi/contract.js';
import { decodeSlackEntities } from '../format/text.js';

export type Assignee = { slackUserId: string } | { handle: string };

export interface QuickAdd {
  title: string;
  assignees: Assignee[];
  /** The raw date text after `due:`; resolve with parseDueDate in the user's time zone. */
  due?: string;
  priority?: number;
}

export type QuickAddParse = { ok: true; value: QuickAdd } | { ok: false; error: string };

const PRIORITY_HELP = `Use p:0–4 or p:${PRIORITY_NAMES.map((n) => n.toLowerCase().replace(' ', '-')).join(', p:')}.`;

export function parseQuickAdd(text: string): QuickAddParse {
  const assignees: Assignee[] = [];
  const words: string[] = [];
  let due: string | undefined;
  let priority: number | undefined;
  // Keep quoted dates like due:"next friday" together.
  const tokens = text.match(/due:"[^"]*"|<[^>]+>|\S+/g) ?? [];
  for (const token of tokens) {
    const mention = /^<@([UW][A-Z0-9_]+)(\|[^>]*)?>$/.exec(token);
    if (mention) {
      assignees.push({ slackUserId: mention[1]! });
    } else if (/^@[^\s@][^\s]*$/.test(token)) {
      assignees.push({ handle: token.slice(1) });
    } else if (/^due:/i.test(token)) {
      due = token.slice(4).replace(/^"|"$/g, '');
      if (!due)
        return { ok: false, error: 'due: needs a date, like due:tomorrow or due:2026-12-01.' };
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
  return { ok: true, value: { title, assignees, due, priority } };
}
