/**
 * The project card (`/work project <id>`, after create/edit, the Home's project buttons):
 * name, description, calendar dates, customer, owner and people by name, statuses in order
 * with their type, groups, labels and enabled features, with Edit and "Link to this channel".
 * A pure function of what get project, get project details and the directory lists returned.
 */
import type { ActionsBlock, Button, KnownBlock } from '@slack/types';
import type {
  Customer,
  Group,
  Project,
  ProjectDetails,
  WorkspaceUser,
} from '../../../workapi/contract.js';
import { calendarDate, formatDueDate } from '../../format/date-text.js';
import { cut, esc } from '../../format/text.js';
import {
  customerName,
  nameLookup,
  priorityName,
  statusTypeName,
  userName,
} from '../../shared/names.js';
import { ACTION } from '../../ui/block-ids.js';
import { section } from '../../ui/blocks.js';

/** What the card shows. Lists left undefined could not be loaded (names show as ids). */
export interface ProjectOverview {
  project: Project;
  details: ProjectDetails;
  groups?: Group[];
  customers?: Customer[];
  users?: WorkspaceUser[];
}

export interface ProjectCardOptions {
  /** A sentence above the card ("Created *X*."). */
  intro?: string;
  /** The project is the default project of the channel the card is shown in. */
  linkedHere?: boolean;
  /** There is a channel to link to (false in App Home or when unknown). Default true. */
  canLink?: boolean;
}

export interface CardMessage {
  text: string;
  blocks: KnownBlock[];
}

export function projectCard(o: ProjectOverview, options: ProjectCardOptions = {}): CardMessage {
  const { project, details } = o;
  const id = project.projectId;
  const name = project.projectName || details.Name || id;
  const customer = nameLookup(o.customers, (c) => c.customerId, customerName);
  const user = nameLookup(o.users, (u) => u.id, userName);

  const customerId = project.customerId ?? details.CustomerId ?? undefined;
  const ownerId = project.ownerId ?? details.CreatedBy;
  const people = project.projectUsers ?? details.ProjectUsers ?? [];
  const description = (project.description ?? details.Description ?? '').trim();
  const start = project.startDate ?? details.StartDate;

  const blocks: KnownBlock[] = [];
  if (options.intro) {
    blocks.push(section(options.intro));
  }
  blocks.push({ type: 'header', text: { type: 'plain_text', text: cut(name, 150) } });
  if (description) {
    blocks.push(section(esc(description)));
  }
  blocks.push({
    type: 'section',
    fields: [
      field('Start', calendarDate(start) ? formatDueDate(start) : 'not set'),
      field('Due', formatDueDate(project.dueDate)),
      field('Customer', customerId ? esc(customer(customerId)) : 'none'),
      field('Owner', ownerId ? esc(user(ownerId)) : 'unknown'),
    ],
  });
  const lines = [
    `*People:* ${people.length ? people.map((u) => esc(user(u))).join(', ') : 'none yet'}`,
    `*Statuses:* ${statusLine(details)}`,
    `*Groups:* ${groupLine(o)}`,
    `*Labels:* ${labelLine(details)}`,
    `*Features:* ${featureLine(details)}`,
  ];
  blocks.push(section(lines.join('\n')));
  const where = options.linkedHere ? ' · :link: this channel’s default project' : '';
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `Project \`${esc(id)}\`${where}` }],
  });
  blocks.push(cardButtons(id, options));

  const text = [
    options.intro,
    // The fallback is mrkdwn too (and all a phone notification shows): escaped like the blocks.
    `Project ${esc(name)} (${esc(id)})`,
    `Due: ${formatDueDate(project.dueDate)}`,
    customerId ? `Customer: ${esc(customer(customerId))}` : undefined,
  ]
    .filter(Boolean)
    .join('\n');
  return { text, blocks };
}

function field(label: string, value: string) {
  return { type: 'mrkdwn' as const, text: cut(`*${label}*\n${value}`, 2000) };
}

function cardButtons(projectId: string, options: ProjectCardOptions): ActionsBlock {
  const elements: Button[] = [
    {
      type: 'button',
      action_id: ACTION.projectEdit,
      text: { type: 'plain_text', text: 'Edit' },
      value: projectId,
    },
  ];
  if (options.canLink !== false && !options.linkedHere) {
    elements.push({
      type: 'button',
      action_id: ACTION.projectLink,
      text: { type: 'plain_text', text: 'Link to this channel' },
      value: projectId,
    });
  }
  return { type: 'actions', block_id: 'project_card_actions', elements };
}

/** Statuses in Index order: "To Do (to do, default) → In Progress (in progress) → …". */
export function statusLine(details: ProjectDetails): string {
  const statuses = [...(details.Status ?? [])].sort(
    (a, b) => (a.Index ?? Number.MAX_SAFE_INTEGER) - (b.Index ?? Number.MAX_SAFE_INTEGER),
  );
  if (!statuses.length) return 'none';
  return statuses
    .map((s) => {
      const notes = [statusTypeName(s.Type), s.Default ? 'default' : undefined].filter(Boolean);
      return `${esc(s.Name || s._id)} _(${notes.join(', ')})_`;
    })
    .join(' → ');
}

function groupLine(o: ProjectOverview): string {
  if (o.details.IsGroupEnabled === false) return 'off for this project';
  if (!o.groups) return '_could not be loaded_';
  if (!o.groups.length) return 'none yet';
  return o.groups.map((g) => esc(g.groupName || g.groupId)).join(', ');
}

function labelLine(details: ProjectDetails): string {
  const labels = details.LabelsList ?? [];
  if (details.LabelsEnabled === false) return 'off for this project';
  return labels.length ? labels.map((l) => esc(l.Name || l._id || '?')).join(', ') : 'none';
}

/** "Priority on (default: Medium) · Estimates on · Milestones off · Groups on". */
export function featureLine(details: ProjectDetails): string {
  const onOff = (v: boolean | undefined) => (v === undefined ? 'unknown' : v ? 'on' : 'off');
  const priority = details.Priority?.Enabled;
  const fallback = priorityName(details.Priority?.Default);
  const priorityText =
    priority && fallback ? `on (default: ${fallback})` : onOff(details.Priority?.Enabled);
  return [
    `Priority ${priorityText}`,
    `Estimates ${onOff(details.IsEstimate)}`,
    `Milestones ${onOff(details.IsMilestone)}`,
    `Groups ${onOff(details.IsGroupEnabled)}`,
  ].join(' · ');
}
