/**
 * Every named schema change (see ./schema-change.ts), one import per file. To add one: create
 * `src/store/schema/<yyyy-mm-dd>-<what>.ts` exporting `change`, import it here, add it to the list.
 */
import { change as assigneesTrigger } from './2026-11-24-assignees-trigger.js';
import { change as dmBursts } from './2026-11-24-dm-bursts.js';
import { change as feedChoices } from './2026-11-24-feed-choices.js';
import { change as paceVersion } from './2026-11-24-pace-version.js';
import { change as personalKeys } from './2026-11-24-personal-keys.js';
import { change as reminders } from './2026-11-24-reminders.js';
import { change as taskWords } from './2026-11-24-task-words.js';
import { change as teamPaceLease } from './2026-11-24-team-pace-lease.js';
import { change as unfurlSettings } from './2026-11-24-unfurl-settings.js';
import { change as wordsUnchanged } from './2026-11-24-words-unchanged.js';
import type { SchemaChange } from './schema-change.js';

export const schemaChanges: readonly SchemaChange[] = [
  assigneesTrigger,
  dmBursts,
  feedChoices,
  paceVersion,
  personalKeys,
  reminders,
  taskWords,
  teamPaceLease,
  unfurlSettings,
  wordsUnchanged,
];
