// Types for the page's mrkdwn renderer, so tests can import the browser module. mrkdwn.js
// declares each export with `@type {typeof import('./mrkdwn.js').…}`, so the page's type check
// holds the implementation to these signatures (they cannot drift apart).

export interface MrkdwnContext {
  users?: Record<string, string>;
  channels?: Record<string, string>;
  tz?: string;
  now?: Date;
}

export function escapeHtml(s: string): string;
export function emojify(escaped: string): string;
export function formatSlackDate(
  epochSeconds: number,
  format: string,
  tz: string,
  now?: Date,
): string | null;
export function mrkdwnToHtml(text: string, ctx?: MrkdwnContext): string;
export function plainToHtml(text: string, emoji?: boolean): string;
