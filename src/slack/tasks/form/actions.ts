/**
 * The task form's project menu (dispatch_action): choosing another project reloads the
 * form for it — its statuses, groups and enabled features — keeping what was typed.
 */
import type { App, BlockAction } from '@slack/bolt';
import type { WorklinkDeps } from '../../context/deps.js';
import { errMessage } from '../../context/error-replies.js';
import { workContext } from '../../context/work-context.js';
import { ACTION } from '../../ui/block-ids.js';
import { createFormData } from './open.js';
import { readTaskFormValues, type StateValues } from './read.js';
import { readTaskFormMeta, taskFormModal } from './view.js';

export function register(app: App, deps: WorklinkDeps): void {
  app.action(ACTION.taskFormProject, async (args) => {
    await args.ack();
    const body = args.body as BlockAction;
    const view = body.view;
    if (!view) return;
    const meta = readTaskFormMeta(view.private_metadata, 'create');
    if (meta.mode !== 'create') return;
    try {
      const ctx = workContext(deps, args, {
        channelId: meta.channelId,
        responseUrl: meta.responseUrl,
      });
      const values = readTaskFormValues(view.state.values as unknown as StateValues);
      const action = args.action as { selected_option?: { value?: string }; value?: string };
      const projectId = (action.selected_option?.value ?? action.value ?? '').trim();
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
        view: taskFormModal(data),
      });
    } catch (e) {
      // A newer update (hash_conflict) or a closed modal: nothing to repair.
      deps.logger.warn(`Refreshing the task form failed: ${errMessage(e)}`);
    }
  });
}
