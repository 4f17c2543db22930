/**
 * The app started as a user would start it against the hosted service: configuration from
 * the environment, WORK_API_URL and WORK_ALT_API_URL pointing at the hosted-style fake
 * (hosted-fake.ts), a fake Slack, HTTP mode on a free port.
 *
 *   const h = await startHostedHarness({ connect: true, pollSeconds: 1 });
 *   h.hosted.addTask({ projectId: h.hosted.projects.website, name: 'x', assignees: [...] });
 *   await h.stop();
 *
 * To restart on the same files and the same service, pass `dataDir` and `fake` (both are
 * then left alone by stop()).
 */
import {
  type AppHarness,
  type HarnessOptions,
  type ServiceSide,
  startAppHarness,
} from './harness.js';
import { type HostedFake, type HostedFakeOptions, startHostedFake } from './hosted-fake.js';

export interface HostedHarness extends AppHarness {
  hosted: HostedFake;
}

export interface HostedHarnessOptions extends HarnessOptions {
  /** Options of a new hosted fake (ignored with `fake`). */
  hosted?: HostedFakeOptions;
  /** A running hosted fake to use (kept running by stop()). */
  fake?: HostedFake;
  /** WORK_POLL_SECONDS (default 0: the watcher off). */
  pollSeconds?: number;
  /** More environment for the app (e.g. WORK_EVENTS_SECRET). */
  env?: Record<string, string>;
}

export async function startHostedHarness(
  options: HostedHarnessOptions = {},
): Promise<HostedHarness> {
  let hosted: HostedFake | undefined;
  const h = await startAppHarness(options, async (): Promise<ServiceSide> => {
    const fake = options.fake ?? (await startHostedFake(options.hosted));
    hosted = fake;
    return {
      seed: fake.seed(),
      urls: { baseUrl: fake.baseUrl, altUrl: fake.altUrl },
      env: {
        WORK_API_URL: fake.baseUrl,
        WORK_ALT_API_URL: fake.altUrl,
        WORK_POLL_SECONDS: String(options.pollSeconds ?? 0),
        // Every DM as it comes, as the embedded harness has it (bursts: dm-bursts.test.ts).
        DM_BURST_SECONDS: '0',
        ...options.env,
      },
      close: () => (options.fake ? Promise.resolve() : fake.close()),
    };
  });
  return { ...h, hosted: hosted! };
}
