/**
 * Submissions of the project create and edit modals. Input problems are answered in the
 * submission's response (`response_action: 'errors'` by block_id) — first our own checks,
 * then the service's 400 verbatim, for which the service is given a short budget (see
 * projects/budget.ts). On success the modal turns into a short confirmation and the project
 * card is posted where the form was opened. Nothing here ever throws into Bolt.
 */

import type { App, ViewResponseAction, ViewSubmitAction } from '@slack/bolt';
import { isWorkApiError } from '../../../workapi/client.js';
import type { Project } from '../../../workapi/contract.js';
import { actingFor } from '../../context/acting.js';
import type { WorklinkDeps } from '../../context/deps.js';
import { errMessage, errorText } from '../../context/error-replies.js';
import { canChangeChannelLinks } from '../../context/permissions.js';
import { budgetLeft, type Settled, settle, withinBudget } from '../../context/submit-budget.js';
import { type WorkContext, workContext } from '../../context/work-context.js';
import { esc } from '../../format/text.js';
import { knownName, linkChannel, rememberProject } from '../../shared/project-context.js';
import { VIEW } from '../../ui/block-ids.js';
import { KEY_UNREADABLE, NOT_CONNECTED } from '../../ui/error-text.js';
import { noticeModal } from '../../ui/notice-modal.js';
import { replyWithProjectCard } from '../card/reply.js';
import {
  type CreateForm,
  errorsFor,
  readCreateForm,
  readEditForm,
  readEditMeta,
  readFormMeta,
} from './read.js';

const CREATE_WORDING = {
  action: 'create the project',
  checkWith: 'the projects in the work-management service',
};

export function register(app: App, deps: WorklinkDeps): void {
  app.view<ViewSubmitAction>(VIEW.projectCreate, async (args) => {
    const started = Date.now();
    const { ack } = args;
    const { view } = args;
    const form = readCreateForm(view.state.values);
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    const meta = readFormMeta(view.private_metadata);
    const ctx = await workContext(deps, args, meta);
    if (!ctx.connection) {
      await ack(notice('New project', ctx.connectionUnreadable ? KEY_UNREADABLE : NOT_CONNECTED));
      return;
    }
    const by = await actingFor(ctx);
    if ('refused' in by) {
      await ack(notice('New project', by.refused));
      return;
    }
    const creating = settle(by.work.createProject(form.value.body));
    const answer = await withinBudget(
      creating,
      budgetLeft(started, deps.config.waits?.submitBudgetMs),
    );
    if (!answer.inTime) {
      // Too slow for the modal: close it; the result goes where the form was opened.
      await ack();
      await finishLate(ctx, await creating, (project) =>
        created(ctx, project, form.value, meta.channelId),
      );
      return;
    }
    const outcome = answer.value;
    if (!outcome.ok) {
      await ack(failure('New project', ctx, outcome.error, CREATE_WORDING, blockIds(view.blocks)));
      return;
    }
    const text = await safely(ctx, () => created(ctx, outcome.value, form.value, meta.channelId));
    await ack(notice('Project created', text));
    if (outcome.value) await cardAfter(ctx, outcome.value.projectId, text);
  });

  app.view<ViewSubmitAction>(VIEW.projectEdit, async (args) => {
    const started = Date.now();
    const { ack } = args;
    const { view } = args;
    const meta = readEditMeta(view.private_metadata);
    if (!meta) {
      await ack(
        notice(
          'Edit project',
          'This form is out of date, so nothing was changed. Run `/work project edit <projectId>` to open it again.',
        ),
      );
      return;
    }
    const form = readEditForm(view.state.values, meta.original);
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    if (!form.value.changes.length) {
      await ack(notice('Edit project', 'Nothing to save: no field was changed.'));
      return;
    }
    const ctx = await workContext(deps, args, meta);
    if (!ctx.connection) {
      await ack(notice('Edit project', ctx.connectionUnreadable ? KEY_UNREADABLE : NOT_CONNECTED));
      return;
    }
    const wording = {
      action: 'save the project',
      id: meta.projectId,
      checkWith: `\`/work project ${meta.projectId}\``,
    };
    const by = await actingFor(ctx);
    if ('refused' in by) {
      await ack(notice('Edit project', by.refused));
      return;
    }
    const saving = settle(by.work.updateProject(meta.projectId, form.value.body));
    const answer = await withinBudget(
      saving,
      budgetLeft(started, deps.config.waits?.submitBudgetMs),
    );
    const saved = async (project: Project | undefined) => {
      // Any 2xx saved it; only a name the service sent back is shown as its name.
      if (project) await rememberProject(ctx, project.projectId, project.projectName);
      const name = project?.projectName
        ? `*${esc(project.projectName)}*`
        : `project \`${meta.projectId}\``;
      return `Saved ${name}: changed ${form.value.changes.join(', ')}.`;
    };
    if (!answer.inTime) {
      await ack();
      await finishLate(ctx, await saving, saved, wording);
      return;
    }
    const outcome = answer.value;
    if (!outcome.ok) {
      await ack(failure('Edit project', ctx, outcome.error, wording, blockIds(view.blocks)));
      return;
    }
    const text = await safely(ctx, () => saved(outcome.value));
    await ack(notice('Project saved', text));
    await cardAfter(ctx, meta.projectId, text);
  });
}

/** Records the new project (and the channel link when asked); returns the sentence to show. */
async function created(
  ctx: WorkContext,
  project: Project | undefined,
  form: CreateForm,
  channelId: string | undefined,
): Promise<string> {
  if (!project) {
    return 'Project created; the service did not return its id, so Worklink cannot show or link it yet. It appears in the service under the name you gave.';
  }
  // Only a name the service sent back is shown as the project's name.
  const name = project.projectName ? `*${esc(project.projectName)}*` : 'the project';
  const parts = [`Created ${name} (\`${project.projectId}\`).`];
  const linking = form.linkChannel && channelId ? await canChangeChannelLinks(ctx) : undefined;
  if (linking && !linking.allowed) {
    await rememberProject(ctx, project.projectId, project.projectName);
    const why = linking.message.replace(/^Sorry, /, '').replace(/ Nothing was changed\.$/, '');
    parts.push(`It was not linked to <#${channelId}>: ${why}`);
  } else if (form.linkChannel && channelId) {
    const link = await linkChannel(ctx, channelId, project.projectId, project.projectName);
    const instead = link.replaced ? ` instead of *${esc(link.replaced.name)}*` : '';
    parts.push(`It is now the default project of <#${channelId}>${instead}.`);
  } else {
    await rememberProject(ctx, project.projectId, project.projectName);
  }
  if (form.body.templateId) {
    const template = esc(await knownName(ctx, form.body.templateId));
    parts.push(`Statuses, groups, labels and features were copied from *${template}*.`);
  }
  return parts.join(' ');
}

/** A failed create/update as the submission's answer: a 400 under its field, else a notice. */
function failure(
  title: string,
  ctx: WorkContext,
  error: unknown,
  wording: { action: string; id?: string; checkWith?: string },
  shownBlocks: string[],
): ViewResponseAction {
  if (isWorkApiError(error) && error.kind === 'invalid') {
    return { response_action: 'errors', errors: errorsFor(error.message, shownBlocks) };
  }
  return notice(title, errorText(ctx, error, wording));
}

/** The outcome of a submission that outlived the modal, told where the form was opened. */
async function finishLate<T>(
  ctx: WorkContext,
  outcome: Settled<T>,
  onSuccess: (value: T) => Promise<string>,
  wording: { action: string; id?: string; checkWith?: string } = CREATE_WORDING,
): Promise<void> {
  try {
    if (!outcome.ok) {
      const again = wording === CREATE_WORDING ? ' Run `/work project new` to try again.' : '';
      await ctx.reply(`${errorText(ctx, outcome.error, wording)}${again}`);
      return;
    }
    const text = await safely(ctx, () => onSuccess(outcome.value));
    const projectId = (outcome.value as { projectId?: string } | undefined)?.projectId;
    if (projectId) await cardAfter(ctx, projectId, text);
    else await ctx.reply(text);
  } catch (e) {
    ctx.logger.error(`Reporting a slow project form failed: ${errMessage(e)}`);
  }
}

/** The card under `intro`; when it cannot be loaded, at least the sentence. */
async function cardAfter(ctx: WorkContext, projectId: string, intro: string): Promise<void> {
  try {
    await replyWithProjectCard(ctx, projectId, intro);
  } catch (e) {
    ctx.logger.warn(`Could not show the card of project ${projectId}: ${errMessage(e)}`);
    await ctx.reply(intro).catch((err) => ctx.logger.warn(`Reply failed: ${errMessage(err)}`));
  }
}

/** Store writes after a successful call must not turn success into a crash. */
async function safely(ctx: WorkContext, fn: () => Promise<string>): Promise<string> {
  try {
    return await fn();
  } catch (e) {
    ctx.logger.error('Recording a project in the app store failed:', e);
    return 'Done in the work-management service, but Worklink could not record it here (the error has been logged).';
  }
}

function notice(title: string, text: string): ViewResponseAction {
  return { response_action: 'update', view: noticeModal(title, text) };
}

function blockIds(blocks: readonly { block_id?: string }[] | undefined): string[] {
  return (blocks ?? []).map((b) => b.block_id).filter((id): id is string => typeof id === 'string');
}
