// The Web API methods for views: views.open and views.push (with a trigger_id), views.update
// (by view_id or external_id, with the hash check) and views.publish (a person's Home tab).

import { MAX_VIEW_STACK, type SandboxState } from './state.js';
import { fail, type MethodHandler, str, viewArg } from './web-api-args.js';

export function viewMethods(s: SandboxState): Record<string, MethodHandler> {
  /** An external_id is unique in the workspace: another view with it refuses the call. */
  const checkExternalId = (spec: Record<string, unknown>, ownId?: string): void => {
    const ext = spec.external_id;
    if (typeof ext !== 'string' || ext === '') return;
    const other = s.viewByExternalId(ext);
    if (other && other.view.id !== ownId) fail('duplicate_external_id');
  };

  return {
    'views.open': (args) => {
      const spec = viewArg(args, 'modal');
      checkExternalId(spec);
      const trigger = s.exchangeTrigger(args.trigger_id);
      if ('error' in trigger) {
        const missing = trigger.error === 'invalid_arguments';
        fail(trigger.error, missing ? ['[ERROR] missing required field: trigger_id'] : undefined);
      }
      return { view: s.openModal(trigger.userId, spec) };
    },

    'views.push': (args) => {
      const spec = viewArg(args, 'modal');
      checkExternalId(spec);
      const trigger = s.exchangeTrigger(args.trigger_id);
      if ('error' in trigger) fail(trigger.error);
      const stack = s.stackOf(trigger.userId);
      if (stack.length === 0) {
        fail('invalid_arguments', [
          '[ERROR] no modal is open for this user; views.push needs a trigger_id from an interaction in an open modal',
        ]);
      }
      if (stack.length >= MAX_VIEW_STACK) fail('push_limit_reached');
      return { view: s.pushModal(trigger.userId, spec) };
    },

    'views.update': (args) => {
      const viewId = str(args, 'view_id');
      const externalId = str(args, 'external_id');
      if (!viewId && !externalId) {
        fail('invalid_arguments', ['[ERROR] either view_id or external_id is required']);
      }
      const stored = viewId ? s.views.get(viewId) : s.viewByExternalId(externalId ?? '');
      if (!stored) return fail('not_found');
      const spec = viewArg(args, stored.view.type);
      checkExternalId(spec, stored.view.id);
      const hash = str(args, 'hash');
      if (hash !== undefined && hash !== stored.view.hash) fail('hash_conflict');
      return { view: s.replaceView(stored.view.id, spec) };
    },

    'views.publish': (args) => {
      const userId = str(args, 'user_id') ?? '';
      const user = s.users.get(userId);
      if (!user || user.isBot) fail('invalid_arguments', ['[ERROR] invalid `user_id`']);
      const spec = viewArg(args, 'home');
      const current = s.homeViews.get(userId);
      checkExternalId(spec, current);
      const hash = str(args, 'hash');
      const currentHash = current ? s.views.get(current)?.view.hash : undefined;
      if (hash !== undefined && currentHash !== undefined && hash !== currentHash) {
        fail('hash_conflict');
      }
      return { view: s.publishHome(userId, spec) };
    },
  };
}
