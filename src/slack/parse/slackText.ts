/**
 * Slack sends `&`, `<` and `>` typed by a person as `&amp;`, `&lt;` and `&gt;` (its own
 * markup, such as `<@U123>`, stays literal). Decode typed text before it reaches the service.
 */
export function decodeSlackEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
