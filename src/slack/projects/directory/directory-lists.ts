/**
 * Readable directory lists: a project's groups (`/work groups`), the workspace's customers
 * with their clients (`/work customers`) and its users with e-mail and owner/admin marks
 * (`/work users`). Long lists are packed into sections within Block Kit's limits; each
 * message's `text` fallback (notifications, screen readers) is escaped and cut like every
 * other message, since the service's names may carry markup (`<!channel>`, links).
 */
import type { KnownBlock } from '@slack/types';
import type { Customer, Group, WorkspaceUser } from '../../../workapi/contract.js';
import { cut, esc, plural } from '../../format/text.js';
import { customerName, userName } from '../../shared/names.js';
import { context, packed, section } from '../../ui/blocks.js';
import { LIMIT } from '../../ui/limits.js';

export interface ListMessage {
  text: string;
  blocks: KnownBlock[];
}

/** A message's plain fallback: the service's words escaped, cut within Slack's limit. */
const FALLBACK_MAX = LIMIT.text;

function fallback(text: string): string {
  // Cut before escaping would let the escapes grow it past the limit; cut after, never
  // in the middle of an entity (`&am…`).
  const escaped = esc(text);
  if (escaped.length <= FALLBACK_MAX) return escaped;
  return cut(escaped.slice(0, FALLBACK_MAX).replace(/&[a-z]{0,3}$/, ''), FALLBACK_MAX);
}

export interface GroupsInput {
  projectId: string;
  projectName: string;
  groups: readonly Group[];
  /** From project details; false means the project does not use groups. */
  groupsEnabled?: boolean;
  /** The project is this channel's default (said, because no id was typed). */
  fromChannel?: boolean;
}

export function groupsMessage(input: GroupsInput): ListMessage {
  const name = esc(input.projectName);
  const whose = input.fromChannel ? ' (this channel’s project)' : '';
  const title = `*Groups of ${name}*${whose}`;
  const off = input.groupsEnabled === false ? 'Groups are turned off for this project.' : undefined;
  if (!input.groups.length) {
    const text = `${name}${whose} has no groups${off ? `. ${off}` : '.'}`;
    return { text, blocks: [section(text)] };
  }
  const items = input.groups.map(
    (g) => `• ${esc(g.groupName || g.groupId)}  \`${esc(g.groupId)}\``,
  );
  const blocks = packed(`${title} — ${plural(input.groups.length, 'group')}`, items);
  if (off) blocks.push(context(off));
  const listed = `Groups of ${input.projectName}: ${input.groups.map((g) => g.groupName || g.groupId).join(', ')}`;
  return { text: fallback([listed, off].filter(Boolean).join('\n')), blocks };
}

export function customersMessage(customers: readonly Customer[]): ListMessage {
  if (!customers.length) {
    const text = 'The connected workspace has no customers.';
    return { text, blocks: [section(text)] };
  }
  const sorted = [...customers].sort((a, b) => customerName(a).localeCompare(customerName(b)));
  const items = sorted.map((c) => {
    const person = [c.firstName, c.lastName].filter(Boolean).join(' ').trim();
    const contact = [person, c.email, c.phone].filter((v) => v?.trim()).map((v) => esc(v!));
    const lines = [`*${esc(customerName(c))}*${contact.length ? ` — ${contact.join(' · ')}` : ''}`];
    if (c.address?.trim()) lines.push(`      ${esc(c.address.trim())}`);
    const clients = (c.clients ?? []).map((cl) => {
      const who = esc(cl.name?.trim() || cl.email?.trim() || cl.clientId);
      return cl.email && cl.name ? `${who} (${esc(cl.email)})` : who;
    });
    lines.push(`      Clients: ${clients.length ? clients.join(', ') : 'none'}`);
    return lines.join('\n');
  });
  const text = `Customers: ${sorted.map(customerName).join(', ')}`;
  return {
    text: fallback(text),
    blocks: packed(`*Customers* — ${plural(sorted.length, 'company', 'companies')}`, items),
  };
}

export interface UsersInput {
  users: readonly WorkspaceUser[];
  /** The service user the API key acts as (marked). */
  keyOwnerId?: string;
}

export function usersMessage(input: UsersInput): ListMessage {
  if (!input.users.length) {
    const text = 'The connected workspace has no users.';
    return { text, blocks: [section(text)] };
  }
  const sorted = [...input.users].sort((a, b) => userName(a).localeCompare(userName(b)));
  const items = sorted.map((u) => {
    const marks = [
      u.email ? esc(u.email) : '_no e-mail_',
      u.isOwner ? 'owner' : undefined,
      u.isAdmin ? 'admin' : undefined,
      u.id === input.keyOwnerId ? '_Worklink acts as this user_' : undefined,
    ].filter(Boolean);
    return `• *${esc(userName(u))}* — ${marks.join(' · ')}`;
  });
  const text = `Users: ${sorted.map((u) => (u.email ? `${userName(u)} (${u.email})` : userName(u))).join(', ')}`;
  return {
    text: fallback(text),
    blocks: packed(`*Users* — ${plural(sorted.length, 'person', 'people')}`, items),
  };
}
