/** Time and date helpers. Requests carry `yyyy-MM-dd`; responses carry ISO UTC date-times. */

export function nowIso(): string {
  return new Date().toISOString();
}

/** A stored calendar date (`yyyy-MM-dd`) as the response's date-time, or null when absent. */
export function dateTimeOf(date: string | null): string | null {
  return date === null ? null : `${date}T00:00:00.000Z`;
}
