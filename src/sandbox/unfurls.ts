/**
 * `chat.unfurl` and `entity.presentDetails`, as Slack answers them (the links issue): an
 * unfurl names its message (channel + ts, or unfurl_id + source) and gives `unfurls` or
 * `metadata.entities` (Work Objects, each with the `app_unfurl_url` posted); a side panel
 * needs the `trigger_id` of an entity_details_requested event and a `metadata` entity or an
 * `error`. What was given is kept, so the sandbox can show it and tests can read it.
 */

import { isObj } from './json-guards.js';

type Args = Record<string, unknown>;

export interface UnfurlRecord {
  channel?: string;
  ts?: string;
  unfurlId?: string;
  unfurls?: Record<string, unknown>;
  entities: Record<string, unknown>[];
}

export interface DetailsRecord {
  triggerId: string;
  metadata?: Record<string, unknown>;
  error?: Record<string, unknown>;
}

class SlackError extends Error {
  constructor(readonly error: string) {
    super(error);
  }
}

/** Form-encoded calls carry JSON text; JSON calls carry objects. */
function json(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    throw new SlackError('invalid_arguments');
  }
}

export class UnfurlLog {
  readonly unfurls: UnfurlRecord[] = [];
  readonly details: DetailsRecord[] = [];

  /** `on` hears each accepted call (the sandbox shows them). */
  constructor(
    private readonly on: {
      unfurled?(u: UnfurlRecord): void;
      detailed?(d: DetailsRecord): void;
    } = {},
  ) {}

  methods(): Record<string, (args: Args) => Record<string, unknown>> {
    return {
      'chat.unfurl': (args) => {
        const channel = typeof args.channel === 'string' ? args.channel : undefined;
        const ts = typeof args.ts === 'string' ? args.ts : undefined;
        const unfurlId = typeof args.unfurl_id === 'string' ? args.unfurl_id : undefined;
        if (!(channel && ts) && !(unfurlId && args.source)) {
          throw new SlackError('invalid_arguments');
        }
        const unfurls = args.unfurls === undefined ? undefined : json(args.unfurls);
        const metadata = args.metadata === undefined ? undefined : json(args.metadata);
        if (unfurls === undefined && metadata === undefined)
          throw new SlackError('missing_unfurls');
        const entities =
          isObj(metadata) && Array.isArray(metadata.entities) ? metadata.entities : [];
        if (entities.some((e) => !isObj(e) || typeof e.app_unfurl_url !== 'string')) {
          throw new SlackError('invalid_metadata');
        }
        const record: UnfurlRecord = {
          channel,
          ts,
          unfurlId,
          unfurls: isObj(unfurls) ? unfurls : undefined,
          entities: entities.filter(isObj),
        };
        this.unfurls.push(record);
        this.on.unfurled?.(record);
        return { ok: true };
      },
      'entity.presentDetails': (args) => {
        if (typeof args.trigger_id !== 'string') throw new SlackError('invalid_arguments');
        const metadata = args.metadata === undefined ? undefined : json(args.metadata);
        const error = args.error === undefined ? undefined : json(args.error);
        if (metadata === undefined && error === undefined)
          throw new SlackError('invalid_arguments');
        const record: DetailsRecord = {
          triggerId: args.trigger_id,
          ...(isObj(metadata) ? { metadata } : {}),
          ...(isObj(error) ? { error } : {}),
        };
        this.details.push(record);
        this.on.detailed?.(record);
        return { ok: true };
      },
    };
  }

  /** The unfurl last given for a message, if any. */
  forMessage(channel: string, ts: string): UnfurlRecord | undefined {
    return this.unfurls.findLast((u) => u.channel === channel && u.ts === ts);
  }
}
