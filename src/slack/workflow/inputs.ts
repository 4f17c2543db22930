/**
 * A step's `inputs` as Workflow Builder sends them: whatever the workflow's author mapped into
 * each field, so nothing is trusted — a text may come as a number, a user list as one id or a
 * comma-separated string, an optional field as null. Read into plain values here; what they
 * mean (projects, people, dates) is checked by the code the slash commands use.
 */

const SLACK_USER = /^[UW][A-Z0-9_]{1,30}$/;

export class StepInputs {
  constructor(private readonly raw: Record<string, unknown> | undefined) {}

  /** Trimmed text ('' when absent or not text). */
  text(name: string): string {
    const v = this.raw?.[name];
    if (typeof v === 'string') return v.trim();
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return '';
  }

  /** One Slack user id, `<@U123>` accepted; undefined when absent or not a user. */
  user(name: string): string | undefined {
    return userId(this.raw?.[name]);
  }

  /**
   * Slack user ids of a list input. `bad` holds what was given but is not a user id, so the
   * step can say so instead of dropping it.
   */
  users(name: string): { ids: string[]; bad: string[] } {
    const v = this.raw?.[name];
    const items = Array.isArray(v)
      ? v
      : typeof v === 'string'
        ? v.split(/[\s,]+/).filter(Boolean)
        : v == null
          ? []
          : [v];
    const ids: string[] = [];
    const bad: string[] = [];
    for (const item of items) {
      const id = userId(item);
      if (id) ids.push(id);
      else bad.push(typeof item === 'string' ? item : JSON.stringify(item));
    }
    return { ids: [...new Set(ids)], bad };
  }
}

function userId(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const id = v.trim().replace(/^<@([^>|]+)(\|[^>]*)?>$/, '$1');
  return SLACK_USER.test(id) ? id : undefined;
}
