// The sandbox's first hour: the page opens on the channel the welcome tells you to use, with
// a welcome message there; the demo workspace has a stable name and dates relative to the day
// it is seeded (one task overdue, one due today, one tomorrow, some next week), so "my tasks"
// and the digest have something true to show instead of every task being months overdue.

import type { SeedOptions } from '../service/seed.js';
import type { SandboxState } from './state.js';
import { DEFAULT_CHANNELS, DEFAULT_USERS } from './workspace.js';

/** The channel the welcome names, and the page opens on: linked to "Website relaunch". */
export const START_CHANNEL = DEFAULT_CHANNELS.find((c) => c.name === 'website')?.id ?? '';

export const DEMO_WORKSPACE_NAME = 'Worklink demo';

/** The seed's options: today as the demo admin (the page's first person) sees it. */
export function firstHourSeed(now: Date = new Date()): SeedOptions {
  const admin = DEFAULT_USERS.find((u) => u.isOwner) ?? DEFAULT_USERS[0];
  // en-CA writes dates as yyyy-MM-dd.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: admin?.tz ?? 'UTC' }).format(now);
  return { today, name: DEMO_WORKSPACE_NAME };
}

export const WELCOME_TEXT = [
  '👋 *Welcome to the Worklink sandbox.* This is #website, linked to the project *Website relaunch*.',
  '• `/work new` creates a task in a form; `/work add Fix the footer @bob due:friday` in one line.',
  '• `/work list mine` shows your tasks: one is overdue, one due today, more next week.',
  '• A message’s ⋯ menu turns it into a task. `/work help` has the rest.',
  'Switch people with “You are” (top left) to see the DMs Worklink sends them.',
].join('\n');

/** Posts the welcome in the start channel, once (the first run), as the app. */
export function postWelcome(state: SandboxState): void {
  if (!START_CHANNEL || !state.channels.has(START_CHANNEL)) return;
  state.addMessage({
    channel: START_CHANNEL,
    user: state.bot.botUserId,
    botId: state.bot.botId,
    text: WELCOME_TEXT,
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: WELCOME_TEXT } }],
  });
}
