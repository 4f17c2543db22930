/**
 * "Already there?": as the title of a new task is typed (dispatch_action on each character),
 * up to 3 open tasks of the chosen project with similar names — from the task index — are
 * shown under it, so a duplicate is caught before it exists. The form is updated in place:
 * only the hint block changes, Slack keeps what was typed.
 */
import type { App, BlockAction } from '@slack/bolt';
import type { Block, KnownBlock, ModalView } from '@slack/types';
import type { IndexedTask } from '../../../store/index.js';
import type { WorklinkDeps } from '../../context/deps.js';
import { errMessage } from '../../context/error-replies.js';
import { cut, esc } from '../../format/text.js';
import { fitView } from '../../ui/limits.js';
import { readTaskFormValues } from './read.js';
import { TASK_ACTION } from './task-form-fields.js';
import { readTaskFormMeta } from './task-form-meta.js';

export const SIMILAR_BLOCK = 'task_similar';
/** How many similar tasks the hint names. */
export const SIMILAR_LIMIT = 3;

/** The hint under the title, or undefined when nothing is similar. */
export function similarHint(similar: readonly IndexedTask[]): KnownBlock | undefined {
  if (similar.length === 0) return undefined;
  const names = similar.map(
    (t) => `${t.number !== undefined ? `#${t.number} ` : ''}${esc(cut(t.name, 80))}`,
  );
  return {
    type: 'context',
    block_id: SIMILAR_BLOCK,
    elements: [{ type: 'mrkdwn', text: `Already there? ${names.join(' · ')}` }],
  };
}

/** `blocks` with the hint (if any) right after the title input, in place of an older one. */
/** The action id of an input block's element. */
function actionIdOf(block: Block | KnownBlock): unknown {
  const element: unknown = 'element' in block ? block.element : undefined;
  return typeof element === 'object' && element !== null && 'action_id' in element
    ? element.action_id
    : undefined;
}

export function withHint(
  blocks: readonly (Block | KnownBlock)[],
  hint: KnownBlock | undefined,
): (Block | KnownBlock)[] {
  const out = blocks.filter((b) => b.block_id !== SIMILAR_BLOCK);
  const at = out.findIndex((b) => b.type === 'input' && actionIdOf(b) === TASK_ACTION.name);
  if (hint && at >= 0) out.splice(at + 1, 0, hint);
  return out;
}

export function register(app: App, deps: WorklinkDeps): void {
  app.action<BlockAction>(TASK_ACTION.name, async (args) => {
    await args.ack();
    const { view } = args.body;
    if (!view) return;
    const meta = readTaskFormMeta(view.private_metadata, 'create');
    if (meta.mode !== 'create') return;
    const teamId = args.context.teamId ?? args.body.team?.id ?? '';
    const values = readTaskFormValues(view.state.values);
    const projectId = values.projectId ?? meta.projectId;
    const typed = 'value' in args.action ? (args.action.value ?? '') : '';
    const similar = projectId
      ? await deps.store.taskIndex.similar(teamId, projectId, typed, SIMILAR_LIMIT)
      : [];
    const { blocks } = view;
    const next = withHint(blocks, similarHint(similar));
    if (JSON.stringify(next) === JSON.stringify(blocks)) return;
    const updated: ModalView = {
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata,
      title: view.title,
      ...(view.submit ? { submit: view.submit } : {}),
      ...(view.close ? { close: view.close } : {}),
      blocks: next,
    };
    try {
      await args.client.views.update({ view_id: view.id, hash: view.hash, view: fitView(updated) });
    } catch (e) {
      // A newer keystroke's update won (hash_conflict), or the form is closed.
      deps.logger.debug(`The similar-task hint was not shown: ${errMessage(e)}`);
    }
  });
}
