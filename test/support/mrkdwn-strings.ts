/**
 * Every mrkdwn string in a Web API body or response_url post, for tests that scan all Worklink
 * sent to Slack (plain_text is never parsed as markup, so it is left out). Form-encoded Web
 * API calls carry blocks and views as JSON strings; those are opened.
 */
export function mrkdwnStrings(value: unknown, key = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/^\s*[[{]/.test(value) && ['blocks', 'view', 'attachments'].includes(key)) {
      try {
        return mrkdwnStrings(JSON.parse(value), key, out);
      } catch {
        // Not JSON after all: a plain string.
      }
    }
    if (key === 'text') out.push(value);
    return out;
  }
  if (Array.isArray(value)) {
    for (const v of value) mrkdwnStrings(v, key, out);
    return out;
  }
  if (value && typeof value === 'object') {
    if ('type' in value && value.type === 'plain_text') return out;
    for (const [k, v] of Object.entries(value)) mrkdwnStrings(v, k, out);
  }
  return out;
}
