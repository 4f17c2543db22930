/**
 * The project's own files (the sandbox page, manifest.yml) wherever the code runs from: the
 * sources (tsx), the compiled tree (dist/src/…) or the production bundle (dist/app/). Found by
 * walking up from the running module to the folder holding package.json and manifest.yml.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

export function projectFile(...parts: string[]): string {
  if (!found) {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!(existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'manifest.yml')))) {
      const up = dirname(dir);
      if (up === dir)
        throw new Error('Worklink cannot find its own files (package.json, manifest.yml).');
      dir = up;
    }
    found = dir;
  }
  return join(found, ...parts);
}
