/**
 * Secrets never leave: the one scrubber that redacts every secret Worklink knows from any
 * text before it reaches a person or a log.
 *
 * What it knows: the configuration's secrets (signing, client and state secrets, tokens,
 * SECRETS_KEY, a database password — `rememberConfigSecrets`), every service API key a
 * WorkClient is made with (the workspace key, a key being checked by `/work connect`,
 * personal keys), and, whoever holds them, anything shaped like a Slack token (`xoxb-…`).
 * Features that hold other secrets add them with `knownSecrets.add(…)`.
 *
 * Where it is applied: every WorkApiError's message (so every quote of the service's words),
 * every failure sentence (src/slack/ui/error-text.ts, `errMessage`), and every log line
 * (src/logger.ts). A service that echoes the request's key in its 400 ("Request with apiKey
 * <KEY> was refused") is quoted as "Request with apiKey [redacted] was refused".
 */

export const REDACTED = '[redacted]';

/** Shorter values are not treated as secrets (they would redact ordinary words). */
const MIN_LENGTH = 8;

/** Slack tokens, by their documented prefixes, whoever they belong to. */
const SLACK_TOKEN = /\bx(?:ox[abposer]|app)-[A-Za-z0-9-]{8,}/g;

export class SecretSet {
  private readonly values = new Set<string>();
  /** One pattern for every value, longest first; rebuilt after an add. */
  private pattern: RegExp | undefined;

  /** Adds a secret (and the forms it takes in a URL); short or empty values are ignored. */
  add(secret: string | undefined | null): void {
    if (!secret || secret.length < MIN_LENGTH) return;
    for (const form of [secret, encodeURIComponent(secret)]) {
      if (!this.values.has(form)) {
        this.values.add(form);
        this.pattern = undefined;
      }
    }
  }

  /** `text` with every known secret and Slack token replaced by `[redacted]`. */
  scrub(text: string): string {
    if (this.values.size > 0) {
      this.pattern ??= new RegExp(
        [...this.values]
          .sort((a, b) => b.length - a.length)
          .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('|'),
        'g',
      );
      text = text.replace(this.pattern, REDACTED);
    }
    return text.replace(SLACK_TOKEN, REDACTED);
  }
}

/** The process's secrets: what every scrub redacts. */
export const knownSecrets = new SecretSet();

/** Redacts every known secret from `text` (a person's answer, a log line). */
export function scrub(text: string): string {
  return knownSecrets.scrub(text);
}

/** The configuration's secrets, as the start-up knows them. */
export interface ConfigSecrets {
  slack: object;
  secretsKey?: Buffer;
  databaseUrl?: string;
}

/** Remembers the configuration's secrets (called once at start-up). */
export function rememberConfigSecrets(config: ConfigSecrets): void {
  for (const [name, value] of Object.entries(config.slack)) {
    if (typeof value === 'string' && /secret|token/i.test(name)) knownSecrets.add(value);
  }
  if (config.secretsKey) {
    knownSecrets.add(config.secretsKey.toString('hex'));
    knownSecrets.add(config.secretsKey.toString('base64'));
  }
  if (config.databaseUrl) {
    try {
      knownSecrets.add(decodeURIComponent(new URL(config.databaseUrl).password));
    } catch {
      // Not a URL the start-up could use either; it says so itself.
    }
  }
}
