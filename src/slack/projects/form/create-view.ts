/**
 * The create-project modal (`/work project new`, App Home): name, customer, start and due
 * dates, a template among the projects this team knows, and "Use as this channel's project".
 */
import type { KnownBlock, ModalView } from '@slack/types';
import type { Customer } from '../../../workapi/contract.js';
import { cut } from '../../format/text.js';
import { VIEW } from '../../ui/block-ids.js';
import { LIMIT } from '../../ui/limits.js';
import {
  customerInput,
  dateInput,
  LINK_CHANNEL_VALUE,
  nameInput,
  option,
  PROJECT_BLOCK,
  PROJECT_INPUT,
  projectFormModal,
} from './fields.js';
import type { ProjectFormMeta } from './read.js';

export interface ProjectCreateModalInput {
  /** Undefined: the list could not be loaded (`customersProblem` says why, one sentence). */
  customers?: readonly Customer[];
  customersProblem?: string;
  /** Projects to offer as templates (known to this team), most recent first. */
  templates: readonly { projectId: string; projectName: string }[];
  /** Where the form was opened; a channel gets the "Use as this channel's project" box. */
  meta: ProjectFormMeta;
  /** The name typed after `/work project new`, prefilled. */
  name?: string;
  /** Name of the channel's current default project, if any (said next to the box). */
  channelProjectName?: string;
}

export function projectCreateModal(input: ProjectCreateModalInput): ModalView {
  const blocks: KnownBlock[] = [nameInput(input.name?.trim().slice(0, 200) || undefined)];
  const customer = customerInput(input.customers);
  if (customer) blocks.push(customer);
  blocks.push(dateInput('start'), dateInput('due'));
  if (input.templates.length) {
    blocks.push({
      type: 'input',
      block_id: PROJECT_BLOCK.template,
      optional: true,
      label: { type: 'plain_text', text: 'Template' },
      element: {
        type: 'static_select',
        action_id: PROJECT_INPUT.template,
        placeholder: { type: 'plain_text', text: 'Start from a project' },
        options: input.templates.slice(0, 100).map((p) => option(p.projectName, p.projectId)),
      },
      hint: {
        type: 'plain_text',
        text: 'Copies its statuses, groups, labels and feature settings (not its tasks).',
      },
    });
  }
  if (input.meta.channelId) {
    // An option's text holds 75 characters: the replaced project's name gets what is left.
    const use = 'Use as this channel’s project';
    const replaces = input.channelProjectName
      ? ` (instead of ${cut(input.channelProjectName, LIMIT.optionText - use.length - 14)})`
      : '';
    blocks.push({
      type: 'input',
      block_id: PROJECT_BLOCK.linkChannel,
      optional: true,
      label: { type: 'plain_text', text: 'Channel' },
      element: {
        type: 'checkboxes',
        action_id: PROJECT_INPUT.linkChannel,
        options: [
          {
            text: { type: 'plain_text', text: `${use}${replaces}` },
            description: {
              type: 'plain_text',
              text: 'New tasks created here go to this project by default.',
            },
            value: LINK_CHANNEL_VALUE,
          },
        ],
      },
    });
  }
  const notes: string[] = [];
  if (input.customersProblem) notes.push(input.customersProblem);
  if (!input.templates.length) {
    notes.push('Projects you open, link or create here become available as templates.');
  }
  return projectFormModal({
    callbackId: VIEW.projectCreate,
    title: 'New project',
    submit: 'Create',
    meta: input.meta,
    blocks,
    notes,
  });
}
