/**
 * The task form's project field by type-ahead: an external_select whose options Slack asks
 * for as the person types (block_suggestion), answered from the projects this workspace
 * knows (the index of projects: linked, used, created, and the service's list where it has
 * one; projects/find-project.ts). A static menu held 100 projects and no more.
 */
import type { App } from '@slack/bolt';
import type { ExternalSelect, PlainTextOption } from '@slack/types';
import type { WorklinkDeps } from '../../context/deps.js';
import { onSuggestion } from '../../context/on-suggestion.js';
import { cut } from '../../format/text.js';
import { matchProjects } from '../../projects/find-project.js';
import { LIMIT } from '../../ui/limits.js';

/** Options one answer holds at most (Slack's limit); typing narrows the rest. */
const MAX_OPTIONS = 100;

export function projectOption(p: { id: string; name: string }): PlainTextOption {
  return { text: { type: 'plain_text', text: cut(p.name || p.id, LIMIT.optionText) }, value: p.id };
}

/** The field, showing the chosen project when there is one. */
export function projectElement(
  actionId: string,
  chosen: { id: string; name: string } | undefined,
): ExternalSelect {
  return {
    type: 'external_select',
    action_id: actionId,
    placeholder: { type: 'plain_text', text: 'Type a project’s name' },
    min_query_length: 0,
    ...(chosen ? { initial_option: projectOption(chosen) } : {}),
  };
}

export function register(app: App, deps: WorklinkDeps, actionId: string): void {
  onSuggestion(app, deps, actionId, 'Project', async (teamId, typed) => {
    const known = (await deps.store.knownProjects.list(teamId, 1_000)).map((p) => ({
      projectId: p.projectId,
      projectName: p.projectName,
    }));
    const words = typed.trim();
    return (words ? matchProjects(known, words) : known)
      .sort((a, b) => a.projectName.localeCompare(b.projectName))
      .slice(0, MAX_OPTIONS)
      .map((p) => projectOption({ id: p.projectId, name: p.projectName }));
  });
}
