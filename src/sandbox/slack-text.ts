// Text a person typed, as Slack hands it to the app.

import type { SandboxState } from './state.js';

/**
 * Text as Slack hands it on: &, < and > escaped; with `tokens`, typed @handles, #channels and
 * links become <@U…|name>, <#C…|name> and <url> (messages always; commands with should_escape).
 */
export function slackText(raw: string, state: SandboxState, tokens: boolean): string {
  let text = raw.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  if (!tokens) return text;
  text = text.replace(
    /(^|[\s(])@([a-z0-9][\w-]*(?:\.[\w-]+)*)(?![@\w])/gi,
    (match, before: string, handle: string) => {
      const wanted = handle.toLowerCase();
      const user = state
        .humans()
        .find((u) => u.name === wanted || u.realName.split(' ')[0].toLowerCase() === wanted);
      return user ? `${before}<@${user.id}|${user.name}>` : match;
    },
  );
  text = text.replace(/(^|[\s(])#([a-z0-9][\w-]*)/gi, (match, before: string, name: string) => {
    const channel = [...state.channels.values()].find(
      (c) => c.kind === 'channel' && c.name === name.toLowerCase(),
    );
    return channel ? `${before}<#${channel.id}|${channel.name}>` : match;
  });
  return text.replace(/(^|[\s(])(https?:\/\/[^\s<>]+[^\s<>.,;:!?)])/g, '$1<$2>');
}
