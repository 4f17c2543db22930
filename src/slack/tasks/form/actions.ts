/**
 * The task form's project menu (dispatch_action): choosing another project reloads the
 * form for it — its statuses, groups and enabled features — keeping what was typed.
 */
import type { App, BlockAction } from '@slack/bolt';
import type { WorklinkDeps } from '../../context/deps.js';
import { errMessage } from '../../context/error-replies.js';
import { workContext } from '../../context/work-context.js';
import { ACTION } from '../../ui/block-ids.js';
import { fitView } from '../../ui/limits.js';
import { createFormData } from './open.js';
import { readTaskFormValues } from './read.js';
import { readTaskFormMeta } from './task-form-meta.js';
import { taskFormModal } from './task-form-modal.js';

export function register(app: App, deps: WorklinkDeps): void {
  app.action<BlockAction>(ACTION.taskFormProject, async (args) => {
    await args.ack();
    const { view } = args.body;
    if (!view) return;
    const meta = readTaskFormMeta(view.private_metadata, 'create');
    if (meta.mode !== 'create') return;
    try {
      const ctx = await workContext(deps, args, {
        channelId: meta.channelId,
        responseUrl: meta.responseUrl,
      });
      const values = readTaskFormValues(view.state.values);
      const { action } = args;
      const chosen =
        'selected_option' in action
          ? action.selected_option?.value
          : 'value' in action
            ? action.value
            : undefined;
      const projectId = (chosen ?? '').trim();
      // The new project's defaults replace the old one's status, group and priority.
      const data = await createFormData(ctx, {
        meta,
        values: {
          ...values,
          projectId: projectId || undefined,
          priority: undefined,
          groupId: undefined,
          statusId: undefined,
        },
      });
      await ctx.slack.views.update({
        view_id: view.id,
        hash: view.hash,
        view: fitView(taskFormModal(data)),
      });
    } catch (e) {
      // A newer update (hash_conflict) or a closed modal: nothing to repair.
      deps.logger.warn(`Refreshing the task form failed: ${errMessage(e)}`);
    }
  });
}
