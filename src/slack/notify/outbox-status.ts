/**
 * The notifications part of `/work status`: how many assignment DMs are waiting, sent and
 * failed for this Slack workspace, and the latest failures with their reasons (to members:
 * only their own, see people/commands.ts).
 */
import type { OutboxRow, OutboxSummary } from '../../store/index.js';
import { formatMoment } from '../format/date-text.js';
import { esc } from '../format/text.js';

/** `failures: 'yours'` when the list holds only the reader's own (a member's view). */
export function outboxStatusText(
  summary: OutboxSummary,
  timeZone: string,
  failures: 'all' | 'yours' = 'all',
): string {
  const waiting = summary.pending + summary.sending;
  const total = waiting + summary.sent + summary.failed + summary.skipped;
  if (total === 0) return '*Assignment DMs:* none sent yet.';
  const parts = [`${waiting} pending`, `${summary.sent} sent`, `${summary.failed} failed`];
  if (summary.skipped > 0) parts.push(`${summary.skipped} not needed (creator was an assignee)`);
  const lines = [`*Assignment DMs:* ${parts.join(', ')}.`];
  if (summary.recentFailures.length > 0) {
    lines.push(failures === 'yours' ? 'Your latest failed DMs:' : 'Latest failures:');
    for (const row of summary.recentFailures) lines.push(failureLine(row, timeZone));
  }
  return lines.join('\n');
}

function failureLine(row: OutboxRow, timeZone: string): string {
  const who =
    row.serviceUserName && row.serviceUserEmail
      ? `${row.serviceUserName} (${row.serviceUserEmail})`
      : (row.serviceUserEmail ?? row.serviceUserName ?? row.serviceUserId);
  const task = row.taskName.trim() || row.taskId;
  const when = formatMoment(row.updatedAt, timeZone);
  return `• ${esc(who)} — _${esc(task)}_: ${esc(row.lastError ?? 'failed')} (${when})`;
}
