/**
 * Worklink's numbers for Prometheus (docs/metrics.md): one registry per running app, filled
 * where the work happens (the HTTP front, the `/work` router, the service client, the DM
 * worker) and read on each scrape from the store (outbox depth and age). Made only when
 * METRICS_TOKEN or METRICS_PORT is set (metrics-route.ts); everything else takes it as
 * optional, so nothing is measured when nobody asks.
 */
import { type WebClient, WebClientEvent } from '@slack/web-api';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { cacheStats } from '../bounded-cache.js';
import type { OutboxStatus } from '../store/index.js';

/** What a scrape reads from the running app. */
export interface MetricsSources {
  /** Outbox rows by status, and when the oldest unsent row was queued (epoch ms). */
  outbox(): Promise<{ counts: Record<OutboxStatus, number>; oldestQueuedAt?: number }>;
  /** The DM worker's running totals. */
  dms(): { sent: number; failed: number; skipped: number; held: number };
  /** Per team: seconds since the watcher last looked, and since the index was last refreshed. */
  lags?(): Promise<{ teamId: string; watcherS?: number; indexS?: number }[]>;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  /** From a Slack request's arrival to its HTTP answer (the ack), per command. */
  readonly ack = new Histogram({
    name: 'worklink_ack_seconds',
    help: 'Time from a Slack request arriving to its HTTP answer (the ack), by command.',
    labelNames: ['command'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  /** From the ack to the command's last reply, per command. */
  readonly reply = new Histogram({
    name: 'worklink_reply_seconds',
    help: 'Time from a /work command being acked to its handler finishing (its replies posted), by command.',
    labelNames: ['command'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly serviceCall = new Histogram({
    name: 'worklink_service_call_seconds',
    help: 'Work-management service calls (retries included), by operation.',
    labelNames: ['operation'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly serviceErrors = new Counter({
    name: 'worklink_service_errors_total',
    help: 'Work-management service calls that failed, by operation.',
    labelNames: ['operation'],
    registers: [this.registry],
  });
  /** Slack 429s, per Web API method, from every watched client (`watchClient`). */
  readonly rateLimited: Counter<'method'>;
  private readonly watched = new WeakSet<WebClient>();

  constructor(sources: MetricsSources) {
    const { registry } = this;
    new Gauge({
      name: 'worklink_outbox_rows',
      help: 'DM outbox rows by status.',
      labelNames: ['status'],
      registers: [registry],
      async collect() {
        const { counts } = await sources.outbox();
        for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
      },
    });
    new Gauge({
      name: 'worklink_outbox_oldest_age_seconds',
      help: 'Age of the oldest DM not sent yet (pending or sending); 0 when none.',
      registers: [registry],
      async collect() {
        const { oldestQueuedAt } = await sources.outbox();
        this.set(oldestQueuedAt ? Math.max(0, (Date.now() - oldestQueuedAt) / 1000) : 0);
      },
    });
    // Running totals kept by the DM worker since this process started, brought into the
    // counters at each scrape (before either is written out).
    const seen = { sent: 0, failed: 0, skipped: 0, held: 0 };
    let totals: Counter<'outcome'> | undefined;
    const sync = () => {
      const now = sources.dms();
      for (const k of ['sent', 'failed', 'skipped', 'held'] as const) {
        if (now[k] > seen[k]) totals?.inc({ outcome: k }, now[k] - seen[k]);
        seen[k] = now[k];
      }
    };
    this.rateLimited = new Counter({
      name: 'worklink_slack_rate_limited_total',
      help: 'Slack Web API calls answered 429, by method.',
      labelNames: ['method'],
      registers: [registry],
    });
    totals = new Counter({
      name: 'worklink_dms_total',
      help: 'DMs handled by this process, by outcome (sent, failed, skipped, held).',
      labelNames: ['outcome'],
      registers: [registry],
      collect: sync,
    });
    new Gauge({
      name: 'worklink_cache_entries',
      help: 'Entries in each in-memory cache (users.info answers, work clients, …) and its bound (kind="max").',
      labelNames: ['cache', 'kind'],
      registers: [registry],
      collect() {
        for (const c of cacheStats()) {
          this.set({ cache: c.name, kind: 'entries' }, c.size);
          this.set({ cache: c.name, kind: 'max' }, c.max);
        }
      },
    });
    new Gauge({
      name: 'worklink_cache_bytes',
      help: 'Estimated bytes held by each cache bounded in bytes (a workspace user list per team, …) and its bound (kind="max").',
      labelNames: ['cache', 'kind'],
      registers: [registry],
      collect() {
        for (const c of cacheStats()) {
          if (!c.maxBytes) continue;
          this.set({ cache: c.name, kind: 'held' }, c.bytes);
          this.set({ cache: c.name, kind: 'max' }, c.maxBytes);
        }
      },
    });
    new Counter({
      name: 'worklink_cache_lookups_total',
      help: 'Look-ups of each in-memory cache by result (hit, miss), and entries evicted to keep it bounded (result="evicted").',
      labelNames: ['cache', 'result'],
      registers: [registry],
      collect() {
        // The caches count for themselves; the totals are brought in as they stand.
        this.reset();
        for (const c of cacheStats()) {
          this.inc({ cache: c.name, result: 'hit' }, c.hits);
          this.inc({ cache: c.name, result: 'miss' }, c.misses);
          this.inc({ cache: c.name, result: 'evicted' }, c.evictions);
        }
      },
    });
    if (sources.lags) {
      const lags = sources.lags;
      new Gauge({
        name: 'worklink_team_lag_seconds',
        help: 'Per team: seconds since the watcher last looked (kind="watcher") and since its task index was last refreshed (kind="index").',
        labelNames: ['team', 'kind'],
        registers: [registry],
        async collect() {
          this.reset();
          for (const l of await lags()) {
            if (l.watcherS !== undefined) this.set({ team: l.teamId, kind: 'watcher' }, l.watcherS);
            if (l.indexS !== undefined) this.set({ team: l.teamId, kind: 'index' }, l.indexS);
          }
        },
      });
    }
  }

  /**
   * Counts the client's 429s by method: the Web API client tells each one (RATE_LIMITED,
   * before it retries or rejects), whoever made the call — Bolt's per-team clients, the DM
   * worker's, the look-up lanes' (they pass theirs on: context/slack-limiter.ts). Once per client.
   */
  watchClient(client: WebClient): void {
    if (this.watched.has(client)) return;
    this.watched.add(client);
    client.on(WebClientEvent.RATE_LIMITED, (_retrySec: number, call: { url?: string } = {}) => {
      // The call's address ends with its method: …/api/chat.postMessage.
      this.rateLimited.inc({ method: call.url?.split('?')[0]?.split('/').pop() || 'unknown' });
    });
  }

  /** Times a service call (WorkClientOptions.timeCall): `done(ok)` when it ends. */
  readonly timeCall = (operation: string): ((ok: boolean) => void) => {
    const end = this.serviceCall.startTimer({ operation });
    return (ok) => {
      end();
      if (!ok) this.serviceErrors.inc({ operation });
    };
  };
}

/**
 * The label of a Slack request for the ack histogram: `/work <subcommand>` for a command,
 * `interactive` for a button/modal payload, `event` for the Events API.
 */
export function requestLabel(body: Buffer, known: ReadonlySet<string>): string {
  const text = body.toString('utf8');
  if (text.startsWith('{')) return 'event';
  const form = new URLSearchParams(text);
  if (form.has('payload')) return 'interactive';
  const command = form.get('command') ?? '';
  return command === '/work' ? commandLabel(form.get('text') ?? '', known) : 'other';
}

/** `/work <first word>` for a known subcommand, else `/work other` (labels stay few). */
export function commandLabel(text: string, known: ReadonlySet<string>): string {
  const word = text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  if (!word) return '/work';
  return known.has(word) ? `/work ${word}` : '/work other';
}
