/** outbox. */
import type { OutboxStore } from './contract.js';

/** The wake-up signal: `changed()` tells every `onChange` listener (the worker). */
export function changeSignal(): Pick<OutboxStore, 'changed' | 'onChange'> {
  const listeners = new Set<() => void>();
  return {
    changed: () => {
      for (const listener of listeners) listener();
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
