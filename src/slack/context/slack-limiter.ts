/**
 * Slack Web API methods Worklink calls in bulk, within Slack's limits (issue 24, finding 5).
 *
 * One limiter per team and method tier: a few calls at once (CONCURRENCY), and never more
 * than the tier's calls in any minute (Tier 3: 50, Tier 4: 100). A 429 pauses that team's tier for
 * its Retry-After and the call is made again then.
 *
 * The calls go through a client of their own per token that does not retry a 429 itself:
 * the Web API client pauses its WHOLE queue on a 429, so a card's 62 e-mail lookups used to
 * hold up every DM and answer sharing the client for a minute. Here only that team's tier
 * waits; a DM (chat.postMessage) or another person's answer goes on.
 */
import { type WebAPICallResult, WebClient, WebClientEvent } from '@slack/web-api';

export const CONCURRENCY = 3;

/** Slack's published tiers of the methods Worklink calls in bulk (calls a minute). */
const TIERS: Record<string, { tier: string; perMinute: number }> = {
  'users.lookupByEmail': { tier: 't3', perMinute: 50 },
  'users.info': { tier: 't4', perMinute: 100 },
  'conversations.open': { tier: 't3', perMinute: 50 },
  'conversations.history': { tier: 't3', perMinute: 50 },
  'conversations.replies': { tier: 't3', perMinute: 50 },
  'chat.update': { tier: 't3', perMinute: 50 },
  // (The DM worker's conversations.open/history while reconciling and live-updates.ts's
  // chat.update keep their own pacing and 429 handling, per outbox row and per team.)
};

/** A call that keeps getting 429 gives up after this many tries. */
const TRIES = 5;

/** 'bulk': one of many look-ups for one answer (a card's people): served after the others. */
export type Priority = 'normal' | 'bulk';

interface Lane {
  /** Calls waiting, in order, by priority. */
  waiting: (() => void)[];
  bulk: (() => void)[];
  running: number;
  /** When each call of the last minute started (the tier's window). */
  started: number[];
  pausedUntil: number;
  timer?: NodeJS.Timeout;
}

export interface LimiterOptions {
  now?: () => number;
  concurrency?: number;
}

export class SlackLimiter {
  private readonly lanes = new Map<string, Lane>();
  private readonly clients = new Map<string, WebClient>();
  private readonly now: () => number;
  private readonly concurrency: number;

  constructor(options: LimiterOptions = {}) {
    this.now = options.now ?? Date.now;
    this.concurrency = options.concurrency ?? CONCURRENCY;
  }

  /** `client.apiCall(method, args)`, within the team's tier; retried after a 429. */
  async call<T extends WebAPICallResult>(
    client: WebClient,
    teamId: string,
    method: string,
    args: Record<string, unknown>,
    priority: Priority = 'normal',
  ): Promise<T> {
    const { tier, perMinute } = TIERS[method] ?? { tier: method, perMinute: 20 };
    const lane = this.lane(`${teamId}:${tier}`);
    const own = this.ownClient(client);
    for (let attempt = 1; ; attempt++) {
      await this.take(lane, perMinute, priority);
      try {
        // Only the methods above come here: the result is what Slack answers for them.
        return (await own.apiCall(method, args)) as T;
      } catch (e) {
        const retryAfter = rateLimitedFor(e);
        if (retryAfter === undefined || attempt >= TRIES) throw e;
        lane.pausedUntil = Math.max(lane.pausedUntil, this.now() + retryAfter * 1000);
      } finally {
        this.release(lane, perMinute);
      }
    }
  }

  private lane(key: string): Lane {
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { waiting: [], bulk: [], running: 0, started: [], pausedUntil: 0 };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  /** Waits for a free place and a token (and the end of a 429 pause). */
  private take(lane: Lane, perMinute: number, priority: Priority): Promise<void> {
    return new Promise((resolve) => {
      (priority === 'bulk' ? lane.bulk : lane.waiting).push(resolve);
      this.pump(lane, perMinute);
    });
  }

  private release(lane: Lane, perMinute: number): void {
    lane.running--;
    this.pump(lane, perMinute);
  }

  private pump(lane: Lane, perMinute: number): void {
    const now = this.now();
    while (lane.started.length > 0 && now - lane.started[0]! >= 60_000) lane.started.shift();
    // Bulk calls leave one place free for the others (a DM's look-up, someone's answer).
    const next = () =>
      lane.waiting.length > 0 && lane.running < this.concurrency
        ? lane.waiting
        : lane.bulk.length > 0 && lane.running < Math.max(1, this.concurrency - 1)
          ? lane.bulk
          : undefined;
    for (let queue = next(); queue; queue = next()) {
      // Never more than the tier's calls in any minute; never during a 429's pause.
      const full = lane.started.length >= perMinute ? lane.started[0]! + 60_000 - now : 0;
      const wait = Math.max(lane.pausedUntil - now, full);
      if (wait > 0) {
        if (!lane.timer) {
          lane.timer = setTimeout(() => {
            lane.timer = undefined;
            this.pump(lane, perMinute);
          }, wait);
        }
        return;
      }
      lane.started.push(now);
      lane.running++;
      queue.shift()?.();
    }
  }

  /** A client with the same token and address that hands a 429 back instead of pausing. */
  private ownClient(client: WebClient): WebClient {
    // An organisation-wide token's client names the workspace in every call (its private
    // `teamId`, which the Web API client adds as `team_id`): the copy must do the same.
    const team = Reflect.get(client, 'teamId');
    const teamId = typeof team === 'string' ? team : undefined;
    const key = `${client.slackApiUrl}\n${client.token ?? ''}\n${teamId ?? ''}`;
    let own = this.clients.get(key);
    if (!own) {
      own = new WebClient(client.token, {
        slackApiUrl: client.slackApiUrl,
        teamId,
        rejectRateLimitedCalls: true,
        retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 1_000 },
        // A look-up that hangs must not hold a place in the lane for ever.
        timeout: 10_000,
      });
      this.clients.set(key, own);
      // Its 429s are the given client's to tell (/metrics counts them there).
      own.on(WebClientEvent.RATE_LIMITED, (...args: unknown[]) =>
        client.emit(WebClientEvent.RATE_LIMITED, ...args),
      );
    }
    return own;
  }
}

/** Seconds to wait for a rate-limited call, else undefined. */
function rateLimitedFor(e: unknown): number | undefined {
  if (typeof e !== 'object' || e === null || !('code' in e) || !('retryAfter' in e)) {
    return undefined;
  }
  return e.code === 'slack_webapi_rate_limited_error' && typeof e.retryAfter === 'number'
    ? e.retryAfter
    : undefined;
}

/** The process's limiter: every bulk call of every team goes through it. */
export const slackLimiter = new SlackLimiter();
