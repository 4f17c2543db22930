/**
 * `worklink start` (npm start): configuration from the environment, then the Slack app for
 * the mode — or, with no Slack credentials, the local sandbox. Problems a person must fix
 * print as one sentence on stderr and exit 1; no stack traces.
 */
import { type AppConfig, ConfigError, loadConfig } from './config.js';
import { applyHeapSettings } from './heap-settings.js';
import { StartupError } from './slack/start/startup-error.js';
import { startWorklink } from './slack/start/worklink.js';

export async function start(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  applyHeapSettings(process.execArgv);
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return fail(e.message);
    throw e;
  }

  if (config.slack.mode === 'sandbox') {
    await startSandboxMode(config);
    return;
  }

  try {
    let stopWith = (code: number): void => process.exit(code);
    const handle = await startWorklink({
      config,
      // One sentence on stderr, then the same clean stop as SIGTERM, exit 1.
      onFatal: (sentence) => {
        process.stderr.write(`worklink: ${sentence}\n`);
        stopWith(1);
      },
    });
    stopWith = (code) => {
      void handle.stop().finally(() => process.exit(code));
    };
    const stop = () => stopWith(0);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  } catch (e) {
    if (e instanceof StartupError || e instanceof ConfigError) return fail(e.message);
    // Listening problems (port in use) are also for a person to fix.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') return fail(`PORT ${config.port} is already in use.`);
    if (code === 'EACCES') return fail(`PORT ${config.port} may not be used by this user.`);
    throw e;
  }
}

async function startSandboxMode(config: AppConfig): Promise<void> {
  // Loaded on demand: the Slack modes never pay for the sandbox (and the reverse).
  const { startSandbox } = await import('./sandbox/start.js');
  try {
    await startSandbox(config);
  } catch (e) {
    // Port in use, an unreadable DATA_DIR/sandbox.json, …: one sentence from the sandbox.
    if (e instanceof StartupError || e instanceof ConfigError) return fail(e.message);
    throw e;
  }
}

function fail(sentence: string): void {
  process.stderr.write(`worklink: ${sentence}\n`);
  process.exitCode = 1;
}
