/**
 * `worklink start` as a real process for the tests that check the command line itself
 * (test/start.test.ts, test/e2e/production-build.test.ts): its output collected as it comes
 * and its exit code awaited. Only PATH and HOME are passed on from the test's environment.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface WorklinkProcess {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

/** Runs `node <nodeArgs…>` in `cwd`; `started` collects the child for the file's cleanup. */
export function runWorklink(
  nodeArgs: string[],
  env: Record<string, string>,
  { cwd, started }: { cwd: string; started: ChildProcess[] },
): WorklinkProcess {
  const child = spawn(process.execPath, nodeArgs, {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
  });
  started.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    out.stdout += d;
  });
  child.stderr.on('data', (d) => {
    out.stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out, exited };
}
