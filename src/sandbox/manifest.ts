// What the page offers depends on the app's manifest, as in Slack: its slash commands, its
// global and message shortcuts, and whether it has a Home tab. The sandbox reads the same
// manifest.yml that is used to create the real Slack app.

import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';

export interface AppCommand {
  command: string;
  description: string;
  usageHint: string;
  /** Slack's should_escape: typed @users, #channels and links reach the app as <…> tokens. */
  shouldEscape?: boolean;
}

export interface AppShortcut {
  type: 'global' | 'message';
  name: string;
  callbackId: string;
  description: string;
}

export interface AppSurface {
  name: string;
  commands: AppCommand[];
  shortcuts: AppShortcut[];
  homeTab: boolean;
  messagesTab: boolean;
  /** settings.event_subscriptions.bot_events: which events the sandbox delivers. */
  botEvents: string[];
}

export const DEFAULT_APP_SURFACE: AppSurface = {
  name: 'Worklink',
  commands: [
    {
      command: '/work',
      description: 'Work with your tasks',
      usageHint: 'new | help',
      shouldEscape: true,
    },
  ],
  shortcuts: [],
  homeTab: true,
  messagesTab: true,
  botEvents: ['app_home_opened'],
};

const Manifest = z.looseObject({
  settings: z
    .looseObject({
      event_subscriptions: z.looseObject({ bot_events: z.array(z.string()).optional() }).optional(),
    })
    .optional(),
  display_information: z.looseObject({ name: z.string().optional() }).optional(),
  features: z
    .looseObject({
      app_home: z
        .looseObject({
          home_tab_enabled: z.boolean().optional(),
          messages_tab_enabled: z.boolean().optional(),
        })
        .optional(),
      bot_user: z.looseObject({ display_name: z.string().optional() }).optional(),
      shortcuts: z
        .array(
          z.looseObject({
            name: z.string(),
            type: z.enum(['global', 'message']),
            callback_id: z.string(),
            description: z.string().optional(),
          }),
        )
        .optional(),
      slash_commands: z
        .array(
          z.looseObject({
            command: z.string(),
            description: z.string().optional(),
            usage_hint: z.string().optional(),
            should_escape: z.boolean().optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});

/** The parts of a Slack app manifest (already parsed from YAML or JSON) the sandbox uses. */
export function appSurfaceFromManifest(manifest: unknown): AppSurface {
  const parsed = Manifest.safeParse(manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`app manifest: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
  }
  const m = parsed.data;
  return {
    name: m.display_information?.name ?? m.features?.bot_user?.display_name ?? 'App',
    commands: (m.features?.slash_commands ?? []).map((c) => ({
      command: c.command,
      description: c.description ?? '',
      usageHint: c.usage_hint ?? '',
      shouldEscape: c.should_escape ?? false,
    })),
    shortcuts: (m.features?.shortcuts ?? []).map((s) => ({
      type: s.type,
      name: s.name,
      callbackId: s.callback_id,
      description: s.description ?? '',
    })),
    homeTab: m.features?.app_home?.home_tab_enabled ?? false,
    messagesTab: m.features?.app_home?.messages_tab_enabled ?? true,
    botEvents: m.settings?.event_subscriptions?.bot_events ?? [],
  };
}

export async function readAppManifest(path: string): Promise<AppSurface> {
  return appSurfaceFromManifest(parse(await readFile(path, 'utf8')));
}
