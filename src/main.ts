#!/usr/bin/env node
/**
 * Worklink's command line: `start` (the Slack app, or the local sandbox when no Slack
 * credentials are set), `service` (the embedded work-management service on its own) and
 * `seed` (a new demo workspace). Each command lives in its own module, loaded on demand so
 * that `seed` does not pay for Bolt.
 */
import { errMessage } from './error-message.js';

const USAGE = `Usage: worklink <command> [options]

Commands:
  start     run Worklink (Slack app; with no Slack credentials, the local sandbox)
  service   run the embedded work-management service: --db <file> --port <n> [--host <ip>]
            [--events-url <url> --events-secret <secret>]
  seed      create a new demo workspace: --db <file> [--json]
  key       issue a user's own API key (for /work connect me): --db <file> --user <email>
            [--workspace <id>]
  help      show this text`;

async function main(argv: string[]): Promise<void> {
  const [command = 'start', ...rest] = argv;
  switch (command) {
    case 'start':
      await (await import('./start.js')).start();
      return;
    case 'service':
      await (await import('./service/cli.js')).runServiceCommand(rest);
      return;
    case 'seed':
      await (await import('./service/cli.js')).runSeedCommand(rest);
      return;
    case 'key':
      await (await import('./service/cli.js')).runKeyCommand(rest);
      return;
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return;
    default:
      console.error(`Unknown command "${command}".\n\n${USAGE}`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Expected failures are reported by the commands themselves; this is the last guard.
  console.error(`worklink: ${errMessage(error)}`);
  process.exitCode = 1;
});
