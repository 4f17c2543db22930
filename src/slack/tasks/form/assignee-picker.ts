/**
 * Assignees by type-ahead: a multi_external_select whose options Slack asks for as the person
 * types (block_suggestion), answered from the service's users. A static list holds 100
 * options, so in a workspace of 125 people the last 25 could not be chosen, and an edit of a
 * task assigned to one of them showed them missing and removed them on save.
 *
 * Why not Slack's own people picker (multi_users_select): the service is what tasks are
 * assigned in, and its users are not all Slack people (no e-mail match, no link yet); a
 * Slack pick would need mapping at submit, could not offer service-only users, and could
 * not show the current assignees who have no Slack account. Type-ahead over the service's
 * users offers exactly who can be assigned, however many.
 */
import type { App } from '@slack/bolt';
import type { MultiExternalSelect, PlainTextOption } from '@slack/types';
import type { WorkspaceUser } from '../../../workapi/contract.js';
import type { WorklinkDeps } from '../../context/deps.js';
import { onSuggestion } from '../../context/on-suggestion.js';
import { cut } from '../../format/text.js';
import { LIMIT } from '../../ui/limits.js';

/** Who can be assigned: the parts of a service user the picker shows. */
export type Person = Pick<WorkspaceUser, 'id' | 'name' | 'email'>;

/** Options one answer holds at most (Slack's limit); typing narrows the rest. */
const MAX_OPTIONS = 100;

/** "Bob Brown (bob@example.com)", within an option's 75 characters. */
export function assigneeOption(u: Person): PlainTextOption {
  const name = u.name?.trim() || u.email || u.id;
  const label = u.email && u.name?.trim() ? `${name} (${u.email})` : name;
  return { text: { type: 'plain_text', text: cut(label, LIMIT.optionText) }, value: u.id };
}

/**
 * The field: every current assignee shown as chosen (named when the service lists them),
 * so an edit that does not touch it keeps them all, however many people the workspace has.
 */
export function assigneeElement(
  actionId: string,
  users: readonly Person[],
  chosen: readonly string[] | undefined,
): MultiExternalSelect {
  const byId = new Map(users.map((u) => [u.id, u]));
  const initial = (chosen ?? []).map((id) =>
    assigneeOption(byId.get(id) ?? { id, name: id, email: '' }),
  );
  return {
    type: 'multi_external_select',
    action_id: actionId,
    placeholder: { type: 'plain_text', text: 'Type a name or e-mail' },
    min_query_length: 0,
    ...(initial.length ? { initial_options: initial } : {}),
  };
}

/** The users matching what was typed: every word a prefix of a word of the name or e-mail. */
export function matchingUsers<P extends Person>(users: readonly P[], typed: string): P[] {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = users.filter((u) => {
    const parts = `${u.name ?? ''} ${u.email ?? ''}`.toLowerCase().split(/[\s@.()_+-]+/);
    return words.every((w) => parts.some((p) => p.startsWith(w)));
  });
  return matches.sort((a, b) => (a.name ?? a.email ?? '').localeCompare(b.name ?? b.email ?? ''));
}

export function register(app: App, deps: WorklinkDeps, actionId: string): void {
  onSuggestion(app, deps, actionId, 'Assignee', async (teamId, typed) => {
    const connection = await deps.store.connections.get(teamId);
    if (!connection) return [];
    // The directory caches the list briefly: typing asks once, not per key.
    const users = await deps.directory.usersOf(teamId, deps.workClients.for(connection));
    return matchingUsers([...users.values()], typed)
      .slice(0, MAX_OPTIONS)
      .map(assigneeOption);
  });
}
