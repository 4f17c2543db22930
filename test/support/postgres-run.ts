/**
 * vitest `globalSetup`: one PostgreSQL server for the whole run instead of one per test file
 * (initdb and start cost seconds each, ~30 files use it). Test files reach it through
 * `usePostgres()` (postgres.ts), which reads its port with `inject('postgresPort')`. Not
 * started for a run of the fast tier alone, which needs no PostgreSQL.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

export default async function setup(
  project: TestProject,
): Promise<(() => Promise<void>) | undefined> {
  if (project.vitest.projects.every((p) => p.name === 'fast')) return undefined;
  const server = await startPostgres();
  project.provide('postgresPort', server.port);
  return () => server.stop();
}
