/**
 * Helpers for the task tests: linking a channel, reading the forms the app sent to the fake
 * Slack, building a submission's state.values from a form's own blocks, and reading a task's
 * status id / files / number from the service (update task with no change answers them).
 */
import type { RecordedCall } from '../../support/fake-slack.js';
import type { AppHarness as Harness } from '../../support/harness.js';

export interface ViewJson {
  id?: string;
  hash?: string;
  callback_id?: string;
  private_metadata?: string;
  title?: { text: string };
  blocks: BlockJson[];
}

export interface BlockJson {
  type: string;
  block_id?: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: ElementJson[];
  element?: ElementJson;
  accessory?: ElementJson;
  label?: { text: string };
  hint?: { text: string };
  optional?: boolean;
  dispatch_action?: boolean;
}

export interface ElementJson {
  type: string;
  action_id?: string;
  value?: string;
  text?: { text: string };
  options?: { text: { text: string }; value: string }[];
  initial_option?: { text: { text: string }; value: string };
  initial_options?: { value: string }[];
  initial_value?: string;
  initial_date?: string;
}

/** Links `channel` to the seed's project `index` (0 Website relaunch, 1 Customer onboarding). */
/** The errors of a `response_action: 'errors'` answer (empty when there are none). */
export function errorsOf(res: { json?: Record<string, unknown> }): Record<string, string> {
  return (res.json?.errors ?? {}) as Record<string, string>;
}

export async function linkChannel(h: Harness, index = 0, channel = 'C_GENERAL'): Promise<string> {
  const project = h.seed.projects[index]!;
  await h.worklink.store.channelProjects.link(
    h.teamId,
    channel,
    project.projectId,
    h.users.alice.id,
  );
  return project.projectId;
}

export function viewOf(call: RecordedCall): ViewJson {
  return call.body.view as ViewJson;
}

/** The answer's view (views.open / views.update), with the id the fake gave it. */
export async function answeredView(h: Harness, call: RecordedCall): Promise<ViewJson> {
  // waitForCall resolves when the call arrives; the answer is recorded a moment later.
  return h.waitFor(() => (call.reply as { view?: ViewJson } | undefined)?.view);
}

/** The input block whose element has `actionId`. */
export function inputWith(view: ViewJson, actionId: string): BlockJson | undefined {
  return view.blocks.find((b) => b.type === 'input' && b.element?.action_id === actionId);
}

export type FieldValue = string | string[] | { files: { id: string }[] } | null;

/**
 * Slack's state.values for a submission of `view`: every input block present (empty unless
 * given), keyed by the view's own block ids, in each element type's shape.
 */
export function stateFor(
  view: ViewJson,
  values: Record<string, FieldValue>,
): Record<string, Record<string, unknown>> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of view.blocks) {
    if (block.type !== 'input' || !block.element?.action_id) continue;
    const el = block.element;
    const given = el.action_id! in values ? values[el.action_id!] : initialOf(el);
    state[block.block_id!] = { [el.action_id!]: stateValue(el, given ?? null) };
  }
  return state;
}

function initialOf(el: ElementJson): FieldValue {
  switch (el.type) {
    case 'static_select':
    case 'external_select':
      return el.initial_option?.value ?? null;
    case 'multi_static_select':
    case 'multi_external_select':
      return (el.initial_options ?? []).map((o) => o.value);
    case 'datepicker':
      return el.initial_date ?? null;
    case 'file_input':
      return { files: [] };
    default:
      return el.initial_value ?? null;
  }
}

function stateValue(el: ElementJson, v: FieldValue): Record<string, unknown> {
  const opt = (value: string) => {
    const o = el.options?.find((x) => x.value === value);
    return { text: { type: 'plain_text', text: o?.text.text ?? value }, value };
  };
  switch (el.type) {
    case 'static_select':
    // An external_select's options come from the app (the task picker): the value is chosen.
    case 'external_select':
      return { type: el.type, selected_option: typeof v === 'string' ? opt(v) : null };
    case 'multi_static_select':
    // A multi_external_select's options come from the app: the values are chosen.
    case 'multi_external_select':
      return { type: el.type, selected_options: Array.isArray(v) ? v.map(opt) : [] };
    case 'datepicker':
      return { type: el.type, selected_date: typeof v === 'string' ? v : null };
    case 'file_input':
      return { type: el.type, files: v && typeof v === 'object' && 'files' in v ? v.files : [] };
    default:
      return { type: el.type, value: typeof v === 'string' ? v : null };
  }
}

/** All text a view or message shows (for "contains" checks). */
export function shown(x: unknown): string {
  return JSON.stringify(x);
}

/** Status id, files and number of a task, as update task answers them (nothing changes). */
export async function serviceView(h: Harness, taskId: string) {
  const task = await h.work.getTask(taskId);
  const updated = await h.work.updateTask(taskId, { projectId: task.projectId ?? '' });
  return { task, updated };
}

/** The task of this project with this name (the list endpoint, then get task). */
export async function findTask(h: Harness, projectId: string, name: string) {
  const list = await h.work.listTasks({ projectId });
  const item = list.find((t) => t.taskName === name);
  return item ? h.work.getTask(item.taskId) : undefined;
}

/** Statuses of a project, from its details. */
export async function statusesOf(h: Harness, projectId: string) {
  return (await h.work.getProjectDetails(projectId)).Status ?? [];
}
