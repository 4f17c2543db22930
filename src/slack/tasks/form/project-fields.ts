/**
 * The fields of the task form that follow the chosen project: priority, group, status,
 * estimate and milestone — each only when the project has the feature on, with the project's
 * own groups and statuses as options (their block_ids carry the project: task-form-fields.ts).
 */
import type { InputBlock, PlainTextOption } from '@slack/types';
import { PRIORITY_NAMES } from '../../../workapi/contract.js';
import { cut } from '../../format/text.js';
import type { ProjectInfo } from '../project-info.js';
import { TASK_ACTION, type TaskField, type TaskFormValues } from './task-form-fields.js';

type FieldInput = [TaskField, Omit<InputBlock, 'type' | 'block_id'>];

const text = (t: string) => ({ type: 'plain_text' as const, text: t });

function option(label: string, value: string): PlainTextOption {
  return { text: text(cut(label.trim() || value, 75)), value };
}

/** The project's inputs, in the form's order; none without a project. */
export function projectFieldInputs(
  project: ProjectInfo | undefined,
  values: TaskFormValues,
  edit: boolean,
  statusUnknown?: boolean,
): FieldInput[] {
  const out: FieldInput[] = [];
  if (project?.priorityEnabled) {
    const options = PRIORITY_NAMES.map((n, i) => option(n, String(i)));
    const initial = options.find((o) => o.value === values.priority);
    out.push([
      'priority',
      {
        label: text('Priority'),
        element: {
          type: 'static_select',
          action_id: TASK_ACTION.priority,
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
      },
    ]);
  }
  if (project?.groupsEnabled && project.groups.length > 0) {
    const options = project.groups
      .slice(0, 100)
      .map((g) => option(g.groupName ?? g.groupId, g.groupId));
    const initial = options.find((o) => o.value === values.groupId);
    out.push([
      'groupId',
      {
        label: text('Group'),
        optional: true,
        element: {
          type: 'static_select',
          action_id: TASK_ACTION.groupId,
          placeholder: text('No group'),
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
      },
    ]);
  }
  if (project && project.statuses.length > 0) {
    const options = project.statuses.slice(0, 100).map((s) => option(s.Name ?? s._id, s._id));
    const initial = options.find((o) => o.value === values.statusId);
    out.push([
      'statusId',
      {
        label: text('Status'),
        // An edit whose current status is unknown may leave it alone.
        optional: edit,
        element: {
          type: 'static_select',
          action_id: TASK_ACTION.statusId,
          placeholder: text(edit ? 'Keep the current status' : 'Choose a status'),
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
        ...(edit && statusUnknown
          ? {
              hint: text(
                'The service does not say which status the task has; pick one to change it.',
              ),
            }
          : {}),
      },
    ]);
  }
  if (project?.estimateEnabled) {
    out.push([
      'estimate',
      {
        label: text('Estimate (hours)'),
        optional: true,
        element: {
          type: 'number_input',
          action_id: TASK_ACTION.estimate,
          is_decimal_allowed: false,
          min_value: '0',
          ...(values.estimate ? { initial_value: values.estimate } : {}),
        },
      },
    ]);
  }
  if (project?.milestoneEnabled) {
    out.push([
      'milestone',
      {
        label: text('Milestone'),
        optional: true,
        element: {
          type: 'number_input',
          action_id: TASK_ACTION.milestone,
          is_decimal_allowed: false,
          min_value: '0',
          ...(values.milestone ? { initial_value: values.milestone } : {}),
        },
      },
    ]);
  }
  return out;
}
