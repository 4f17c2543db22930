/**
 * Pieces shared by the project create and edit modals: block and action ids (a submission's
 * errors are keyed by block_id), the form's inputs and the modal around them (loading and
 * notice views: notice.ts). Pure functions: data in, Block Kit out.
 */
import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { Customer } from '../../../workapi/contract.js';
import { cut } from '../../format/text.js';
import { customerName } from '../../shared/names.js';
import { context } from '../../ui/blocks.js';

/** block_ids of the form's inputs; `response_action: 'errors'` is keyed by these. */
export const PROJECT_BLOCK = {
  name: 'project_name',
  customer: 'project_customer',
  start: 'project_start',
  due: 'project_due',
  template: 'project_template',
  linkChannel: 'project_link_channel',
  description: 'project_description',
  features: 'project_features',
  defaultPriority: 'project_default_priority',
} as const;

/** action_ids inside those blocks (one input each). */
export const PROJECT_INPUT = {
  name: 'name_input',
  customer: 'customer_input',
  start: 'start_input',
  due: 'due_input',
  template: 'template_input',
  linkChannel: 'link_channel_input',
  description: 'description_input',
  features: 'features_input',
  defaultPriority: 'default_priority_input',
} as const;

/** Values of the feature checkboxes (edit modal). */
export const FEATURE = {
  priority: 'priority',
  estimate: 'estimate',
  milestone: 'milestone',
} as const;
export const LINK_CHANNEL_VALUE = 'link';

/** Slack's limits: static selects hold 100 options; option text 75, value 150 characters. */
const MAX_OPTIONS = 100;

export function option(text: string, value: string): PlainTextOption {
  return { text: { type: 'plain_text', text: cut(text, 75) }, value: value.slice(0, 150) };
}

/** The longest project name the form takes (the service's limit). */
export const NAME_MAX = 200;

/** What the name field shows of `name`: all of it, or its first NAME_MAX characters. */
export function shownName(name: string): string {
  return name.slice(0, NAME_MAX);
}

/**
 * The name field. A longer name (the hosted service allows them) shows its first 200
 * characters and says so; left as shown, it is not written back (read.ts, readEditForm).
 */
export function nameInput(initial?: string): InputBlock {
  const cutName = initial !== undefined && initial.length > NAME_MAX;
  return {
    type: 'input',
    block_id: PROJECT_BLOCK.name,
    label: { type: 'plain_text', text: 'Name' },
    element: {
      type: 'plain_text_input',
      action_id: PROJECT_INPUT.name,
      max_length: NAME_MAX,
      placeholder: { type: 'plain_text', text: 'e.g. Website relaunch' },
      ...(initial ? { initial_value: shownName(initial) } : {}),
    },
    ...(cutName
      ? {
          hint: {
            type: 'plain_text',
            text: `The name is longer than this field (${NAME_MAX} characters), so it shows the start. Leave it as it is to keep the whole name.`,
          },
        }
      : {}),
  };
}

/**
 * The customer picker; undefined when there is nothing to pick from. `currentId` is kept
 * among the options even when the list is long or could not be loaded.
 */
export function customerInput(
  customers: readonly Customer[] | undefined,
  currentId?: string,
): InputBlock | undefined {
  const options = (customers ?? []).map((c) => option(customerName(c), c.customerId));
  let initial = currentId ? options.find((o) => o.value === currentId) : undefined;
  if (currentId && !initial) {
    initial = option(currentId, currentId);
    options.unshift(initial);
  }
  if (!options.length) return undefined;
  const shown = options.slice(0, MAX_OPTIONS);
  if (initial && !shown.includes(initial)) shown[shown.length - 1] = initial;
  return {
    type: 'input',
    block_id: PROJECT_BLOCK.customer,
    optional: true,
    label: { type: 'plain_text', text: 'Customer' },
    element: {
      type: 'static_select',
      action_id: PROJECT_INPUT.customer,
      placeholder: { type: 'plain_text', text: 'Choose a customer' },
      options: shown,
      ...(initial ? { initial_option: initial } : {}),
    },
  };
}

export function dateInput(which: 'start' | 'due', initial?: string): InputBlock {
  return {
    type: 'input',
    block_id: PROJECT_BLOCK[which],
    optional: true,
    label: { type: 'plain_text', text: which === 'start' ? 'Start date' : 'Due date' },
    element: {
      type: 'datepicker',
      action_id: PROJECT_INPUT[which],
      placeholder: { type: 'plain_text', text: 'Pick a date' },
      ...(initial ? { initial_date: initial } : {}),
    },
  };
}

/** The create or edit form: its inputs, then the notes (if any) in one context line. */
export function projectFormModal(form: {
  callbackId: string;
  title: string;
  submit: string;
  meta: object;
  blocks: KnownBlock[];
  notes: string[];
}): ModalView {
  const notes = form.notes.length ? [context(form.notes.join(' '))] : [];
  return {
    type: 'modal',
    callback_id: form.callbackId,
    private_metadata: JSON.stringify(form.meta),
    title: { type: 'plain_text', text: form.title },
    submit: { type: 'plain_text', text: form.submit },
    close: { type: 'plain_text', text: 'Cancel' },
    blocks: [...form.blocks, ...notes],
  };
}
