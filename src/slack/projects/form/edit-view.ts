/**
 * The edit-project modal (`/work project edit <id>`, the card's Edit button): every field of
 * update project, prefilled. Only changed fields are sent (see projects/form.ts).
 */
import type { KnownBlock, ModalView, Option } from '@slack/types';
import { type Customer, PRIORITY_NAMES } from '../../../workapi/contract.js';
import { VIEW } from '../../ui/block-ids.js';
import {
  customerInput,
  dateInput,
  FEATURE,
  nameInput,
  option,
  PROJECT_BLOCK,
  PROJECT_INPUT,
  projectFormModal,
} from './fields.js';
import { type EditMeta, SLACK_TEXT_LIMIT } from './read.js';

export interface ProjectEditModalInput {
  meta: EditMeta;
  /** The current description (the snapshot only has its hash). */
  description: string;
  customers?: readonly Customer[];
  customersProblem?: string;
}

export function projectEditModal(input: ProjectEditModalInput): ModalView {
  const o = input.meta.original;
  const blocks: KnownBlock[] = [nameInput(o.name)];
  const customer = customerInput(input.customers, o.customerId);
  if (customer) blocks.push(customer);
  blocks.push(dateInput('start', o.startDate), dateInput('due', o.dueDate));
  if (o.descriptionEditable) {
    blocks.push({
      type: 'input',
      block_id: PROJECT_BLOCK.description,
      optional: true,
      label: { type: 'plain_text', text: 'Description' },
      element: {
        type: 'plain_text_input',
        action_id: PROJECT_INPUT.description,
        multiline: true,
        max_length: SLACK_TEXT_LIMIT,
        ...(input.description ? { initial_value: input.description } : {}),
      },
    });
  }
  const featureOptions: Option[] = [
    featureOption(FEATURE.priority, 'Priority', 'Tasks can have a priority.'),
    featureOption(FEATURE.estimate, 'Estimates', 'Tasks can have an estimate in hours.'),
    featureOption(FEATURE.milestone, 'Milestones', 'Tasks can belong to a milestone.'),
  ];
  const enabled = featureOptions.filter(
    (f) =>
      (f.value === FEATURE.priority && o.priority) ||
      (f.value === FEATURE.estimate && o.estimate) ||
      (f.value === FEATURE.milestone && o.milestone),
  );
  blocks.push({
    type: 'input',
    block_id: PROJECT_BLOCK.features,
    optional: true,
    label: { type: 'plain_text', text: 'Features' },
    element: {
      type: 'checkboxes',
      action_id: PROJECT_INPUT.features,
      options: featureOptions,
      ...(enabled.length ? { initial_options: enabled } : {}),
    },
  });
  const priorities = PRIORITY_NAMES.map((name) => option(name, name));
  const current = priorities.find((p) => p.value === o.defaultPriority);
  blocks.push({
    type: 'input',
    block_id: PROJECT_BLOCK.defaultPriority,
    optional: true,
    label: { type: 'plain_text', text: 'Default priority' },
    element: {
      type: 'static_select',
      action_id: PROJECT_INPUT.defaultPriority,
      placeholder: { type: 'plain_text', text: 'Choose a priority' },
      options: priorities,
      ...(current ? { initial_option: current } : {}),
    },
    hint: {
      type: 'plain_text',
      text: 'Given to new tasks that name no priority, while priority is on.',
    },
  });
  const notes = [`Project \`${input.meta.projectId}\`.`];
  if (!o.descriptionEditable) {
    notes.push(
      `The description is longer than Slack can edit (${SLACK_TEXT_LIMIT} characters); it is kept as it is.`,
    );
  }
  if (input.customersProblem) notes.push(input.customersProblem);
  notes.push('The service cannot remove a customer or a date once set; they can be changed.');
  return projectFormModal({
    callbackId: VIEW.projectEdit,
    title: 'Edit project',
    submit: 'Save',
    meta: input.meta,
    blocks,
    notes,
  });
}

function featureOption(value: string, label: string, description: string): Option {
  return {
    text: { type: 'plain_text', text: label },
    description: { type: 'plain_text', text: description },
    value,
  };
}
