/**
 * Slack files → the service's task files `{fileType, href, name, size: '12.34 KB'}`.
 * Files uploaded in the form are read with files.info; files of a message (create from
 * message) come with the message and are only looked up when the message left them out.
 */

import type { TaskFileInput } from '../../workapi/contract.js';
import { orDebug } from '../context/error-replies.js';
import type { WorkContext } from '../context/work-context.js';
import { cut } from '../format/text.js';
import { slackCode } from '../ui/error-text.js';

/** The parts of a Slack file object that matter here. */
export interface SlackFileLike {
  id?: string;
  name?: string | null;
  title?: string | null;
  filetype?: string | null;
  mimetype?: string | null;
  size?: number | null;
  url_private?: string | null;
  permalink?: string | null;
}

/** 12 643 bytes → "12.35 KB"; KB below 1 MB, then MB, then GB (docs/work-management-api.md). */
export function formatFileSize(bytes: number | null | undefined): string {
  let value = Math.max(0, Number(bytes) || 0) / 1024;
  const units = ['KB', 'MB', 'GB'] as const;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Math.min(value, 999_999).toFixed(2)} ${units[unit]}`;
}

/** The task file for a Slack file, or undefined when it has no address to link to. */
export function toTaskFile(file: SlackFileLike): TaskFileInput | undefined {
  const href = file.url_private || file.permalink;
  if (!href || !/^https?:\/\//i.test(href)) return undefined;
  return {
    fileType: cut(file.filetype || file.mimetype || 'file', 100),
    href,
    name: cut(file.name || file.title || file.id || 'file', 500),
    size: formatFileSize(file.size),
  };
}

/** Thrown when a file cannot be read from Slack; `message` is one sentence. */
export class FileReadError extends Error {
  override readonly name = 'FileReadError';
}

/** files.info for each id (in parallel), as task files. */
export async function readSlackFiles(
  ctx: WorkContext,
  ids: readonly string[],
): Promise<TaskFileInput[]> {
  return Promise.all(
    ids.map(async (id) => {
      let file: SlackFileLike | undefined;
      try {
        file = (await ctx.slack.files.info({ file: id })).file;
      } catch (e) {
        const code = slackCode(e) ?? 'no answer';
        throw new FileReadError(
          `Could not read an attached file from Slack (${code}). Remove it, or attach it again.`,
        );
      }
      const taskFile = file && toTaskFile(file);
      if (!taskFile) {
        throw new FileReadError(
          `Slack gave no link for ${file?.name ?? 'an attached file'}. Remove it, or attach it again.`,
        );
      }
      return taskFile;
    }),
  );
}

/**
 * A message's files as task files; files the message describes only by id (Slack's
 * `file_access: check_file_info`) are read with files.info. Unreadable ones are skipped.
 */
export async function messageFiles(
  ctx: WorkContext,
  files: readonly SlackFileLike[],
): Promise<TaskFileInput[]> {
  const out = await Promise.all(
    files.slice(0, 50).map(async (f) => {
      const direct = toTaskFile(f);
      if (direct || !f.id) return direct;
      return readSlackFiles(ctx, [f.id])
        .then((x) => x[0])
        .catch(orDebug(ctx.logger, `Reading file ${f.id}`, undefined));
    }),
  );
  return out.filter((f): f is TaskFileInput => f !== undefined);
}
