/**
 * The per-request caches (src/bounded-cache.ts) are measured: after signed `/work` commands
 * against a running app (embedded service, fake Slack), /metrics tells each cache's entries,
 * its bound and its hits and misses — the second command is served from them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BoundedCache } from '../../src/bounded-cache.js';
import { type Harness, startHarness } from '../support/harness.js';

const TOKEN = 'metrics-token-for-the-cache-test';
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    connect: true,
    configure: (config) => ({ ...config, metricsToken: TOKEN }),
  });
});
afterAll(() => h?.stop());

async function scrape(): Promise<Map<string, number>> {
  const res = await fetch(`${h.worklink.url}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    const m = /^(worklink_cache_\w+\{[^}]*\}) (\S+)$/.exec(line);
    if (m) samples.set(m[1]!, Number(m[2]));
  }
  return samples;
}

it('tells entries, bounds, hits and misses of the caches a command uses', async () => {
  const { projectId } = h.seed.projects[0]!;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', projectId, h.users.alice.id);
  for (let i = 0; i < 2; i++) await h.replyTo(await h.slack.slashCommand('list'));
  const samples = await scrape();
  const at = (cache: string, label: string) => samples.get(`${cache}${label}`) ?? -1;
  for (const cache of ['work_clients', 'opened_secrets', 'slack_users']) {
    // The second command found what the first one put there.
    expect(at('worklink_cache_lookups_total', `{cache="${cache}",result="hit"}`)).toBeGreaterThan(
      0,
    );
    expect(at('worklink_cache_lookups_total', `{cache="${cache}",result="miss"}`)).toBeGreaterThan(
      0,
    );
    const entries = at('worklink_cache_entries', `{cache="${cache}",kind="entries"}`);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThanOrEqual(
      at('worklink_cache_entries', `{cache="${cache}",kind="max"}`),
    );
  }
  // The service's user lists are bounded in bytes too (32 MB for all teams of an app; the
  // caches of every app alive in this process add up, as entries do).
  const maxBytes = at('worklink_cache_bytes', '{cache="service_users",kind="max"}');
  expect(maxBytes).toBeGreaterThanOrEqual(32 * 1024 * 1024);
  expect(at('worklink_cache_bytes', '{cache="service_users",kind="held"}')).toBeLessThanOrEqual(
    maxBytes,
  );
});

it('keeps at most its bound, least recently used leaving first, and forgets what expired', () => {
  let now = 0;
  const cache = new BoundedCache<string, number>('test_cache', 2, 1_000, () => now);
  cache.set('a', 1);
  cache.set('b', 2);
  expect(cache.get('a')).toBe(1); // a is now the most recently used
  cache.set('c', 3);
  expect(cache.keys()).toEqual(['a', 'c']);
  expect(cache.evictions).toBe(1);
  now = 1_000;
  expect(cache.get('a')).toBeUndefined();
  expect(cache.size).toBe(1);
  expect({ hits: cache.hits, misses: cache.misses }).toEqual({ hits: 1, misses: 1 });
});

it('is bounded in bytes too when its entries are weighed: the least recently used leave first', () => {
  const cache = new BoundedCache<string, string>('test_bytes', 100, undefined, Date.now, 1_000);
  cache.set('a', 'A');
  cache.weigh('a', 'A', 400);
  cache.set('b', 'B');
  cache.weigh('b', 'B', 400);
  expect(cache.bytes).toBe(800);
  expect(cache.get('a')).toBe('A'); // b is now the least recently used
  cache.set('c', 'C');
  cache.weigh('c', 'C', 400);
  expect(cache.keys()).toEqual(['a', 'c']);
  expect(cache.bytes).toBe(800);
  // A weight for a value the entry no longer holds is not counted.
  cache.set('a', 'A2');
  cache.weigh('a', 'A', 900);
  expect(cache.bytes).toBe(400);
  // One entry over the whole bound is not kept.
  cache.weigh('a', 'A2', 2_000);
  expect(cache.keys()).toEqual([]);
  expect(cache.bytes).toBe(0);
});
