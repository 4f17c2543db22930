/**
 * The create/edit task modal as a PURE function of data (taskFormModal); its field ids are
 * task-form-fields.ts, its private_metadata task-form-meta.ts, the project's own fields
 * project-fields.ts. Reading and checking a submission is in read.ts.
 *
 * Fields follow the chosen project: priority, group, estimate and milestone appear only when
 * the project has the feature on; statuses and groups are the project's own. Their block_ids
 * carry the project (`task_group.a1b2c3d4`), so switching projects resets them in Slack
 * instead of keeping an option that the new project does not have.
 */

import type { InputBlock, KnownBlock, ModalView } from '@slack/types';
import { isCalendarDate, type WorkspaceUser } from '../../../workapi/contract.js';
import { cut, esc, listing } from '../../format/text.js';
import { VIEW } from '../../ui/block-ids.js';
import { defaultStatus, type ProjectInfo } from '../project-info.js';
import { assigneeElement } from './assignee-picker.js';
import { projectFieldInputs } from './project-fields.js';
import { projectElement } from './project-picker.js';
import {
  shownTaskName,
  TASK_ACTION,
  TASK_NAME_MAX,
  type TaskField,
  type TaskFormValues,
  taskBlockId,
} from './task-form-fields.js';
import { encodeTaskFormMeta, type TaskFormMeta } from './task-form-meta.js';

export interface TaskFormData {
  meta: TaskFormMeta;
  values: TaskFormValues;
  /** Projects known to this Slack workspace (create): the project menu. */
  projects: { id: string; name: string }[];
  /** The chosen project's details, when loaded. */
  project?: ProjectInfo;
  /** Why the chosen project's fields are missing ("Project x was not found"). */
  projectProblem?: string;
  users: WorkspaceUser[];
  /** A problem to show at the top (e.g. a failed save, with the values kept). */
  banner?: string;
  /** edit: the status could not be told from the task (get task has no status id). */
  statusUnknown?: boolean;
  /** create: "Already there?" — open tasks of the project with similar names. */
  similarHint?: KnownBlock;
}

const text = (t: string) => ({ type: 'plain_text' as const, text: t });

export function taskFormModal(data: TaskFormData): ModalView {
  const { meta, values, project } = data;
  const edit = meta.mode === 'edit';
  const blocks: KnownBlock[] = [];
  const inputs: TaskField[] = [];
  const pid = project?.id;
  const input = (field: TaskField, block: Omit<InputBlock, 'type' | 'block_id'>) => {
    inputs.push(field);
    blocks.push({ type: 'input', block_id: taskBlockId(field, pid), ...block });
  };

  if (data.banner) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`:warning: ${data.banner}`, 3000) },
    });
  }

  // Project: a menu of known projects, or an id field when none is known yet.
  if (edit) {
    const name = project?.name ?? meta.projectId ?? 'unknown project';
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `Project: *${esc(name)}*` }],
    });
  } else if (data.projects.length > 0) {
    // Type-ahead over the projects Worklink knows (project-picker.ts): no 100-option cap.
    const chosenId = values.projectId ?? pid;
    const chosen = chosenId
      ? {
          id: chosenId,
          name:
            data.projects.find((p) => p.id === chosenId)?.name ??
            (project?.id === chosenId ? project.name : chosenId),
        }
      : undefined;
    const select = projectElement(TASK_ACTION.project, chosen);
    input('project', { label: text('Project'), dispatch_action: true, element: select });
  } else {
    input('project', {
      label: text('Project id'),
      dispatch_action: true,
      element: {
        type: 'plain_text_input',
        action_id: TASK_ACTION.project,
        placeholder: text('Paste a project id'),
        max_length: 100,
        dispatch_action_config: { trigger_actions_on: ['on_enter_pressed'] },
        ...(values.projectId ? { initial_value: values.projectId } : {}),
      },
      hint: text(
        'No project is known here yet. Paste a project id (press Enter to load its fields), or link one to a channel with /work project link <projectId>.',
      ),
    });
  }
  if (data.projectProblem) {
    blocks.push({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: cut(`:warning: ${data.projectProblem}`, 3000) }],
    });
  }

  const nameCut = edit && (values.name?.length ?? 0) > TASK_NAME_MAX;
  input('name', {
    label: text('Name'),
    ...(nameCut
      ? {
          hint: text(
            `The name is longer than this field (${TASK_NAME_MAX} characters), so it shows the start. Leave it as it is to keep the whole name.`,
          ),
        }
      : {}),
    // A new task's title is looked up as it is typed (form/similar.ts: "Already there?").
    ...(edit ? {} : { dispatch_action: true }),
    element: {
      type: 'plain_text_input',
      action_id: TASK_ACTION.name,
      placeholder: text('What needs doing?'),
      max_length: TASK_NAME_MAX,
      ...(edit ? {} : { dispatch_action_config: { trigger_actions_on: ['on_character_entered'] } }),
      ...(values.name ? { initial_value: shownTaskName(values.name) } : {}),
    },
  });
  if (data.similarHint) blocks.push(data.similarHint);
  // Slack's text inputs hold 3000 characters: a longer description cannot be edited here
  // without cutting it, so an edit leaves it alone and says so.
  const longDescription = edit && (values.description?.length ?? 0) > 3000;
  if (longDescription) {
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: 'The description is longer than a Slack form can hold (3,000 characters), so it is kept as it is.',
        },
      ],
    });
  } else {
    input('description', {
      label: text('Description'),
      optional: true,
      element: {
        type: 'plain_text_input',
        action_id: TASK_ACTION.description,
        multiline: true,
        max_length: 3000,
        ...(values.description ? { initial_value: cut(values.description, 3000) } : {}),
      },
    });
  }

  if (data.users.length > 0) {
    input('assignees', {
      label: text('Assignees'),
      optional: true,
      // Type-ahead over the service's users (assignee-picker.ts): no 100-person cap.
      element: assigneeElement(TASK_ACTION.assignees, data.users, values.assignees),
    });
  }

  input('dueDate', {
    label: text('Due date'),
    optional: true,
    element: {
      type: 'datepicker',
      action_id: TASK_ACTION.dueDate,
      placeholder: text('No due date'),
      ...(values.dueDate && isCalendarDate(values.dueDate) ? { initial_date: values.dueDate } : {}),
    },
  });

  // The chosen project's own fields (priority, group, status, estimate, milestone).
  for (const [field, block] of projectFieldInputs(project, values, edit, data.statusUnknown)) {
    input(field, block);
  }
  // Files replace a task's whole file list on update, which get task cannot show: create only.
  if (!edit) {
    input('files', {
      label: text('Files'),
      optional: true,
      element: { type: 'file_input', action_id: TASK_ACTION.files, max_files: 10 },
    });
  }
  if (meta.files?.length) {
    const names = meta.files.map((f) => esc(f.name));
    blocks.push({
      type: 'context',
      elements: [
        {
          type: 'mrkdwn',
          text: cut(`:paperclip: Attached from the message: ${listing(names)}`, 3000),
        },
      ],
    });
  }

  return {
    type: 'modal',
    callback_id: edit ? VIEW.taskEdit : VIEW.taskCreate,
    private_metadata: encodeTaskFormMeta({ ...meta, projectId: pid ?? meta.projectId, inputs }),
    title: text(edit ? 'Edit task' : 'New task'),
    submit: text(edit ? 'Save' : 'Create'),
    close: text('Cancel'),
    blocks,
  };
}

/** The initial values of a create form for `project` (its defaults). */
export function createDefaults(project: ProjectInfo | undefined): TaskFormValues {
  if (!project) return {};
  return {
    priority: project.priorityEnabled ? String(project.defaultPriority) : undefined,
    statusId: defaultStatus(project.statuses)?._id,
  };
}
