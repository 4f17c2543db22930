/**
 * A task as a Slack Work Object (entity type task) and as ordinary unfurl blocks for clients
 * that show no Work Objects. Pure. Shapes: @slack/types EntityMetadata / TaskEntityFields
 * (https://docs.slack.dev/messaging/work-objects-implementation).
 */
import type { EntityMetadata, EntityTypedField, KnownBlock } from '@slack/types';
import type { TaskCardData } from '../context/ports.js';
import { calendarDate, formatDueDate } from '../format/date-text.js';
import { cut, esc } from '../format/text.js';
import { assigneeText } from '../tasks/card/task-card.js';
import { ACTION } from '../ui/block-ids.js';

export const TASK_ENTITY = 'slack#/entities/task';
/** A preview's description is cut here; the side panel shows it whole. */
const PREVIEW_DESCRIPTION = 300;

export interface TaskEntityInput {
  /** The exact URL posted (required by chat.unfurl). */
  postedUrl?: string;
  /** The task's address in the service. */
  url: string;
  data: TaskCardData;
  description?: string;
  /** Who created it: a Slack user, else a name. */
  createdBy?: { slackUserId?: string; name?: string };
  productName: string;
  /** The side panel: the whole description and every fact. */
  full?: boolean;
}

function person(p: { slackUserId?: string; name?: string }): EntityTypedField | undefined {
  if (p.slackUserId) return { type: 'slack#/types/user', user: { user_id: p.slackUserId } };
  return p.name ? { type: 'string', value: p.name } : undefined;
}

export function taskEntity(input: TaskEntityInput): EntityMetadata {
  const { data } = input;
  const description = (input.description ?? '').trim();
  const shown = input.full ? cut(description, 10_000) : cut(description, PREVIEW_DESCRIPTION);
  const due = calendarDate(data.dueDate);
  const assignee = data.assignees[0] ? person(data.assignees[0]) : undefined;
  const createdBy = input.createdBy ? person(input.createdBy) : undefined;
  const custom = [
    ...(data.projectName
      ? [{ key: 'project', label: 'Project', type: 'string', value: data.projectName }]
      : []),
    ...(data.assignees.length > 1
      ? [
          {
            key: 'assignees',
            label: 'Assignees',
            type: 'string',
            value: data.assignees.map((a) => a.name).join(', '),
          },
        ]
      : []),
    ...(input.full && data.groupName
      ? [{ key: 'group', label: 'Group', type: 'string', value: data.groupName }]
      : []),
    ...(input.full && data.estimate !== undefined
      ? [{ key: 'estimate', label: 'Estimate (hours)', type: 'integer', value: data.estimate }]
      : []),
  ];
  return {
    ...(input.postedUrl ? { app_unfurl_url: input.postedUrl } : {}),
    url: input.url,
    external_ref: { id: data.taskId, type: 'task' },
    entity_type: TASK_ENTITY,
    entity_payload: {
      attributes: {
        title: { text: cut(data.name.trim() || 'Untitled task', 300) },
        ...(data.number !== undefined ? { display_id: `#${data.number}` } : {}),
        product_name: input.productName,
      },
      fields: {
        status: { value: data.status.name, tag_color: data.status.done ? 'green' : 'blue' },
        ...(shown ? { description: { value: shown, long: true } } : {}),
        ...(assignee ? { assignee } : {}),
        ...(due ? { due_date: { type: 'slack#/types/date', value: due } } : {}),
        ...(data.priorityName ? { priority: { value: data.priorityName } } : {}),
        ...(createdBy ? { created_by: createdBy } : {}),
      },
      ...(custom.length ? { custom_fields: custom } : {}),
      actions: {
        primary_actions: [
          ...(data.status.done
            ? []
            : [
                {
                  text: 'Mark complete',
                  action_id: ACTION.taskComplete,
                  value: data.taskId,
                  style: 'primary',
                },
              ]),
          { text: 'Comment', action_id: ACTION.taskComment, value: data.taskId },
        ],
      },
    },
  };
}

/** The ordinary unfurl: title linked, status, assignees, due date, a cut description. */
export function taskUnfurlBlocks(input: TaskEntityInput): KnownBlock[] {
  const { data } = input;
  const name = esc(cut(data.name.trim() || 'Untitled task', 200));
  const title = `${data.status.done ? '✅ ' : ''}*<${input.url}|${data.number !== undefined ? `#${data.number} ` : ''}${name}>*`;
  const facts = [
    esc(data.status.name),
    data.projectName && esc(data.projectName),
    data.assignees.length ? assigneeText(data.assignees) : undefined,
    calendarDate(data.dueDate) ? `due ${formatDueDate(data.dueDate)}` : undefined,
    data.priorityName && data.priorityName !== 'No Priority' ? esc(data.priorityName) : undefined,
  ].filter(Boolean);
  const description = (input.description ?? '').trim();
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          [title, description && esc(cut(description, PREVIEW_DESCRIPTION))]
            .filter(Boolean)
            .join('\n'),
          3000,
        ),
      },
    },
    { type: 'context', elements: [{ type: 'mrkdwn', text: cut(facts.join(' · '), 2000) }] },
  ];
}

/** A project's summary: its name linked and its open tasks (the first few). */
export function projectUnfurlBlocks(input: {
  url: string;
  name: string;
  open: { number?: number; name: string }[];
  openTotal: number;
}): KnownBlock[] {
  const lines = input.open
    .slice(0, 5)
    .map((t) => `• ${t.number !== undefined ? `#${t.number} ` : ''}${esc(cut(t.name, 120))}`);
  const more =
    input.openTotal > lines.length ? `\n…and ${input.openTotal - lines.length} more` : '';
  return [
    {
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: cut(
          `*<${input.url}|${esc(cut(input.name, 200))}>* — ${input.openTotal} open ${input.openTotal === 1 ? 'task' : 'tasks'}${lines.length ? `\n${lines.join('\n')}${more}` : ''}`,
          3000,
        ),
      },
    },
  ];
}
