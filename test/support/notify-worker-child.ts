/**
 * A notification worker in its own process, for the kill test: opens the app store in
 * DATA_DIR and delivers its outbox to the fake Slack at SLACK_API_URL until killed.
 *
 *   node --import tsx test/support/notify-worker-child.ts <dataDir> <slackApiUrl>
 *
 * Prints "ready" once the worker runs, then "sent <outboxId>" for each DM it delivers.
 */
import { openStore } from '../../src/store/index.js';
import { testWorker } from './notify-rows.js';

const [dataDir, apiUrl] = process.argv.slice(2);
if (!dataDir || !apiUrl) {
  process.stderr.write('usage: notify-worker-child.ts <dataDir> <slackApiUrl>\n');
  process.exit(2);
}
const store = openStore(dataDir);
// The lease outlasts the request timeout, so only a dead worker's rows are taken over.
const worker = testWorker(store, apiUrl, {
  timeoutMs: 2_000,
  leaseMs: 3_000,
  perTeamConcurrency: 4,
  idlePollMs: 50,
});
worker.start();
// The worker's timers are unref'd; keep this process alive until it is killed.
setInterval(() => {}, 60_000);
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void worker.stop().then(async () => {
    await store.close();
    process.exit(0);
  });
});
