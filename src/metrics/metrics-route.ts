/**
 * Where Prometheus scrapes (docs/metrics.md): GET /metrics on the app's own port when
 * METRICS_TOKEN is set (a bearer token, so the open port does not tell strangers its
 * numbers), and/or on a separate METRICS_PORT (for a private network; the token is still
 * asked for when it is set). Neither set: no /metrics at all.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { OutboxStore, TaskIndexStore } from '../store/index.js';
import { Metrics, type MetricsSources } from './metrics.js';

export const METRICS_PATH = '/metrics';

/** Answers a scrape: 401 without the token (when one is set), else the text format. */
export function metricsHandler(metrics: Metrics, token: string | undefined) {
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (expected) {
      const given = Buffer.from(String(req.headers.authorization ?? ''));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' });
        res.end('A bearer token (METRICS_TOKEN) is needed.\n');
        return;
      }
    }
    const text = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType });
    res.end(text);
  };
}

/** A server of its own for /metrics on `port` (0 picks one); resolves once it listens. */
export async function startMetricsServer(
  metrics: Metrics,
  port: number,
  host: string | undefined,
  token: string | undefined,
): Promise<Server> {
  const handle = metricsHandler(metrics, token);
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method !== 'GET' || path !== METRICS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Only GET /metrics here.\n');
      return;
    }
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}

/** What serving /metrics needs of the app. */
export interface MetricsServing {
  metricsToken?: string;
  metricsPort?: number;
}

/** True when /metrics is wanted (METRICS_TOKEN or METRICS_PORT). */
export const metricsWanted = (config: MetricsServing): boolean =>
  Boolean(config.metricsToken) || config.metricsPort !== undefined;

/**
 * The app's metrics when wanted, reading at each scrape the outbox, each team's index lag (how
 * long ago its stalest open task was read, from the database, so whichever instance read it)
 * and, through `late`, the DM worker's totals and the watcher's looks (parts made after this).
 */
export function appMetrics(
  config: MetricsServing,
  store: {
    outbox: Pick<OutboxStore, 'counts' | 'oldestQueuedAt'>;
    taskIndex: Pick<TaskIndexStore, 'stalest'>;
    connections: { list(): Promise<{ teamId: string }[]> };
  },
  late: () => { dms: ReturnType<MetricsSources['dms']>; looks: Map<string, number> },
): Metrics | undefined {
  if (!metricsWanted(config)) return undefined;
  const { outbox } = store;
  return new Metrics({
    outbox: async () => ({
      counts: await outbox.counts(),
      oldestQueuedAt: await outbox.oldestQueuedAt(),
    }),
    dms: () => late().dms,
    lags: async () => {
      const now = Date.now();
      const looks = late().looks;
      const teams = new Set([
        ...looks.keys(),
        ...(await store.connections.list()).map((c) => c.teamId),
      ]);
      return Promise.all(
        [...teams].map(async (teamId) => {
          const at = looks.get(teamId);
          const [stalest] = await store.taskIndex.stalest(teamId, 1);
          const readAt = stalest && (stalest.readAt ?? stalest.seenAt);
          return {
            teamId,
            ...(at !== undefined ? { watcherS: (now - at) / 1000 } : {}),
            ...(readAt !== undefined ? { indexS: Math.max(0, (now - readAt) / 1000) } : {}),
          };
        }),
      );
    },
  });
}

/**
 * Serves /metrics as configured: on the app's routes with the token, and/or on its own port.
 * Returns how to stop its own server (nothing to stop otherwise).
 */
export async function serveMetrics(
  metrics: Metrics,
  config: MetricsServing,
  routes: {
    add(route: { method: string; path: string; handler: ReturnType<typeof metricsHandler> }): void;
  },
  host: string | undefined,
): Promise<() => Promise<void>> {
  if (config.metricsToken) {
    routes.add({
      method: 'GET',
      path: METRICS_PATH,
      handler: metricsHandler(metrics, config.metricsToken),
    });
  }
  if (config.metricsPort === undefined) return async () => {};
  const server = await startMetricsServer(metrics, config.metricsPort, host, config.metricsToken);
  return () => new Promise((resolve) => server.close(() => resolve()));
}
