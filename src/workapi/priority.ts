/** Task priority: integer 0–4 in requests; names: docs/work-management-api.md, States. */
export const PRIORITY_NAMES = ['No Priority', 'Urgent', 'High', 'Medium', 'Low'] as const;
export type PriorityName = (typeof PRIORITY_NAMES)[number];

/** Priority as its number, from 2, "2" or "High"; undefined when it is none of these. */
export function priorityNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 4) return v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  if (/^[0-4]$/.test(s)) return Number(s);
  const i = PRIORITY_NAMES.findIndex((n) => n.toLowerCase() === s.toLowerCase());
  return i >= 0 ? i : undefined;
}
