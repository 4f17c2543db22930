/** manifest.yml creates the app Worklink expects (and asks for no more scopes than it uses). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BOT_SCOPES } from '../../src/slack/app.js';

type Manifest = {
  _metadata: { major_version: number };
  display_information: { name: string };
  features: {
    app_home: { home_tab_enabled: boolean; messages_tab_enabled: boolean };
    bot_user: { display_name: string };
    slash_commands: { command: string; url: string; usage_hint?: string; description: string }[];
    shortcuts: { name: string; type: string; callback_id: string; description: string }[];
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] }; redirect_urls: string[] };
  settings: {
    event_subscriptions: { request_url: string; bot_events: string[] };
    interactivity: { is_enabled: boolean; request_url: string; message_menu_options_url?: string };
    socket_mode_enabled: boolean;
  };
};

const manifest = parse(
  readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8'),
) as Manifest;

describe('manifest.yml', () => {
  it('is a version 2 manifest for the Worklink bot', () => {
    expect(manifest._metadata.major_version).toBe(2);
    expect(manifest.display_information.name).toBe('Worklink');
    expect(manifest.features.bot_user.display_name).toBe('Worklink');
  });

  it('has the /work command with a usage hint', () => {
    expect(manifest.features.slash_commands).toHaveLength(1);
    const [work] = manifest.features.slash_commands;
    expect(work.command).toBe('/work');
    expect(work.usage_hint).toBeTruthy();
    expect(work.url).toBe('https://example.com/slack/events');
  });

  it('has the three shortcuts', () => {
    expect(
      manifest.features.shortcuts.map(({ name, type, callback_id }) => ({
        name,
        type,
        callback_id,
      })),
    ).toEqual([
      {
        name: 'Create task from message',
        type: 'message',
        callback_id: 'create_task_from_message',
      },
      { name: 'Add to task as comment', type: 'message', callback_id: 'add_comment_from_message' },
      { name: 'New task', type: 'global', callback_id: 'new_task' },
    ]);
  });

  it('asks for exactly the scopes the app declares, and no user scopes', () => {
    expect(manifest.oauth_config.scopes.bot).toEqual([
      'commands',
      'chat:write',
      'users:read',
      'users:read.email',
      'im:write',
      'im:history',
      'files:read',
      'channels:history',
      'groups:history',
      'channels:read',
      'groups:read',
      'links:read',
      'links:write',
      'reactions:write',
    ]);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...BOT_SCOPES].sort());
    expect(manifest.oauth_config.scopes.user).toBeUndefined();
  });

  it('has App Home, events, interactivity and Socket Mode', () => {
    expect(manifest.features.app_home.home_tab_enabled).toBe(true);
    expect(manifest.features.app_home.messages_tab_enabled).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual([
      'app_home_opened',
      'app_uninstalled',
      'entity_details_requested',
      'link_shared',
      'message.channels',
      'message.groups',
      'tokens_revoked',
    ]);
    expect(manifest.settings.event_subscriptions.request_url).toBe(
      'https://example.com/slack/events',
    );
    expect(manifest.settings.interactivity).toEqual({
      is_enabled: true,
      request_url: 'https://example.com/slack/events',
      // The task picker's options (external_select) come from the same URL.
      message_menu_options_url: 'https://example.com/slack/events',
    });
    expect(manifest.settings.socket_mode_enabled).toBe(true);
    expect(manifest.oauth_config.redirect_urls).toEqual([
      'https://example.com/slack/oauth_redirect',
    ]);
  });
});
