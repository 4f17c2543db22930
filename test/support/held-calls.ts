/**
 * A fake Slack script that holds every call of a method until the test lets them go: "the
 * app answered before that call completed" as an order of events, without sitting through a
 * scripted delay long enough to be sure.
 *
 *   const users = heldCalls();
 *   h.fake.script('users.info', users.script);
 *   const res = await h.slack.slashCommand('status');   // answered while users.info is held
 *   const acked = h.fake.mark('slash command answered');
 *   users.release();                                     // now it completes
 *
 * `maxMs` lets a held call through anyway, so that an app that waits for it before answering
 * fails on the test's order assertion rather than on the test's timeout.
 */
import type { Script } from './fake-slack.js';

export interface HeldCalls {
  /** Holds each call until `release()` (or `maxMs`), then gives the real answer. */
  script: Script;
  release(): void;
}

export function heldCalls(maxMs = 5_000): HeldCalls {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const script: Script = async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    await Promise.race([released, late]);
    clearTimeout(timer);
    return undefined;
  };
  return { script, release: () => release() };
}
