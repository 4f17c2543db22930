/**
 * The house's measures held (scripts/house-measures.ts): no import circle, type-only imports
 * included, and no import from a lower layer up into a higher one. A change that brings one
 * back fails here with the script's own list of the files involved.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

it('src has no import circle and no upward arrow', () => {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'scripts/house-measures.ts', '--max-circles', '0', '--max-upward', '0'],
    { cwd: root, encoding: 'utf8' },
  );
  expect(run.stderr + run.stdout).toContain('import circles (type-only imports included): 0');
  expect(run.stdout).toContain('upward arrows between layers: 0');
  expect(run.status).toBe(0);
});
