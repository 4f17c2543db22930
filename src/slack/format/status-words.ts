/**
 * The one status vocabulary of every surface (card, list rows, Home, digest, DMs, unfurls,
 * workflow steps): a status is named only when it is KNOWN — by its id (an update's answer)
 * or by the name the task index was told (events, updates) — and otherwise the task is
 * simply "Open" or "Done". Get task has only a done flag, and guessing a name from it ("To
 * Do") was wrong for a task In Progress and read differently from the list rows.
 */

export const OPEN = 'Open';
export const DONE = 'Done';

/** "In Progress" when known, else "Open" / "Done" by the done flag. */
export function statusWords(statusName: string | undefined | null, done: boolean): string {
  const known = statusName?.trim();
  return known || (done ? DONE : OPEN);
}

/**
 * The status name the task index knows, when it agrees with what a fresh read says of the
 * task (done or not); a name from before the task was completed or reopened is not used.
 */
export function indexedStatusName(
  indexed: { statusName?: string; done: boolean } | undefined,
  done: boolean,
): string | undefined {
  return indexed && indexed.done === done ? indexed.statusName : undefined;
}
