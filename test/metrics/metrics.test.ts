/**
 * /metrics (docs/metrics.md) on a running app (HTTP mode, embedded service, fake Slack):
 * refused without METRICS_TOKEN's bearer token; with it, Prometheus text that parses and
 * carries the named series after a command and a DM. The same numbers on a separate port.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/metrics/metrics-route.js';
import { type Harness, startHarness } from '../support/harness.js';
import { matchedRow } from '../support/notify-rows.js';
import { dmCalls } from '../support/notify-slack.js';

const TOKEN = 'metrics-token-for-this-test';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    connect: true,
    configure: (config) => ({ ...config, metricsToken: TOKEN }),
  });
});
afterAll(() => h?.stop());

const scrape = (url: string, token?: string) =>
  fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });

/** The text format, line by line: comments, or `name{labels} value`; else it throws. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const sample =
    /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})? (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|\+Inf|-Inf|NaN))$/;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (/^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(line)) continue;
    const m = sample.exec(line);
    if (!m) throw new Error(`Not Prometheus text: ${line}`);
    samples.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return samples;
}

it('is refused without the token, and after a command and a DM carries the named series', async () => {
  const url = `${h.worklink.url}/metrics`;
  expect((await scrape(url)).status).toBe(401);
  expect((await scrape(url, 'wrong')).status).toBe(401);

  // The channel's project, so that `/work list` asks the service.
  const { projectId } = h.seed.projects[0]!;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', projectId, h.users.alice.id);
  const help = await h.slack.slashCommand('help');
  await h.replyTo(help);
  const list = await h.slack.slashCommand('list');
  await h.replyTo(list);
  const [row] = await h.worklink.store.outbox.enqueue(
    [matchedRow(h.teamId, h.users.bob.id)],
    'slack',
  );
  h.worklink.parts.notifications.worker.wake();
  await h.waitFor(async () => (await h.worklink.store.outbox.get(row!.id))?.status === 'sent');
  expect(dmCalls(h.fake)).toHaveLength(1);

  const res = await scrape(url, TOKEN);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  const samples = parsePrometheus(await res.text());
  const at = (series: string) => samples.get(series) ?? 0;
  expect(at('worklink_ack_seconds_count{command="/work help"}')).toBeGreaterThanOrEqual(1);
  expect(at('worklink_ack_seconds_count{command="/work list"}')).toBeGreaterThanOrEqual(1);
  expect(at('worklink_reply_seconds_count{command="/work help"}')).toBeGreaterThanOrEqual(1);
  expect(at('worklink_reply_seconds_count{command="/work list"}')).toBeGreaterThanOrEqual(1);
  expect(at('worklink_service_call_seconds_count{operation="listTasks"}')).toBeGreaterThanOrEqual(
    1,
  );
  expect(samples.has('worklink_outbox_oldest_age_seconds')).toBe(true);
  expect(at('worklink_outbox_rows{status="sent"}')).toBe(1);
  expect(at('worklink_dms_total{outcome="sent"}')).toBe(1);
  for (const series of [
    'worklink_service_errors_total',
    'worklink_slack_rate_limited_total',
    'worklink_team_lag_seconds',
  ]) {
    expect((await (await scrape(url, TOKEN)).text()).includes(`# TYPE ${series}`)).toBe(true);
  }
});

it('serves the same numbers on a port of its own', async () => {
  const metrics = h.worklink.deps.metrics!;
  const server = await startMetricsServer(metrics, 0, '127.0.0.1', TOKEN);
  try {
    const { port } = server.address() as { port: number };
    const url = `http://127.0.0.1:${port}/metrics`;
    expect((await scrape(url)).status).toBe(401);
    const samples = parsePrometheus(await (await scrape(url, TOKEN)).text());
    expect(samples.get('worklink_dms_total{outcome="sent"}')).toBe(1);
    expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

it("counts Slack's 429s by method, whoever made the call, and each team's index lag", async () => {
  const url = `${h.worklink.url}/metrics`;
  const tooMany = { status: 429, headers: { 'retry-after': '1' } };
  // The DM worker's client (it rejects a 429 and retries the row itself)…
  h.fake.script('chat.postMessage', (_body, n) => (n === 1 ? tooMany : undefined));
  const [row] = await h.worklink.store.outbox.enqueue(
    [matchedRow(h.teamId, h.users.carol.id)],
    'slack',
  );
  h.worklink.parts.notifications.worker.wake();
  // …and the client Bolt hands a listener (App Home's views.publish retries after the pause).
  h.fake.script('views.publish', (_body, n) => (n === 1 ? tooMany : undefined));
  await h.slack.event({ type: 'app_home_opened', user: 'U_ALICE', tab: 'home', channel: 'D1' });
  await h.waitFor(async () => (await h.worklink.store.outbox.get(row!.id))?.status === 'sent', {
    timeoutMs: 20_000,
  });
  await h.waitFor(
    () => h.fake.calls.filter((c) => c.method === 'views.publish' && c.doneSeq).length >= 2,
    { timeoutMs: 20_000 },
  );

  const samples = parsePrometheus(await (await scrape(url, TOKEN)).text());
  expect(samples.get('worklink_slack_rate_limited_total{method="chat.postMessage"}')).toBe(1);
  expect(samples.get('worklink_slack_rate_limited_total{method="views.publish"}')).toBe(1);
  // The index has the tasks `/work list` read above: its stalest one was read seconds ago.
  const lag = samples.get(`worklink_team_lag_seconds{team="${h.teamId}",kind="index"}`);
  expect(lag).toBeGreaterThanOrEqual(0);
  expect(lag).toBeLessThan(600);
});
