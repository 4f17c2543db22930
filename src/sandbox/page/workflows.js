// The "Workflows" panel: runs one of the app's Workflow Builder steps with inputs typed here,
// as a workflow would — the server sends the app a signed `function_executed` event and
// waits for functions.completeSuccess / completeError — and shows the outputs or the error.
// It asks /sandbox/workflows for the steps and /sandbox/state for the people itself (the rest
// of the page is not involved), finding its elements with session.js's lookups.
// @ts-check

import { $, byId } from './session.js';

/**
 * @typedef {{ name: string, type: string, title: string, description: string,
 *   isRequired: boolean, itemsType?: string, hint?: string }} Param
 * @typedef {{ callbackId: string, title: string, description: string,
 *   inputs: Param[], outputs: Param[] }} Step
 * @typedef {{ id: string, realName: string, isBot: boolean }} Person
 */

/** @type {{ steps: Step[], people: Person[], step: Step | null, busy: boolean }} */
const panel = { steps: [], people: [], step: null, busy: false };

const USER = 'slack#/types/user_id';
/** Inputs that stand for the person running the workflow start as "you". */
const RUNNER_INPUTS = new Set(['run_by', 'author']);

/**
 * @param {string} tag
 * @param {Record<string, string | boolean>} [attrs]
 * @param {(Node | string)[]} [children]
 */
function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false) continue;
    node.setAttribute(k, v === true ? '' : v);
  }
  node.append(...children);
  return node;
}

/** The person the page shows (the sidebar's "You are"). */
function me() {
  return byId('user-switch', HTMLSelectElement).value;
}

async function load() {
  const [steps, state] = await Promise.all([
    fetch('/sandbox/workflows').then((r) => r.json()),
    fetch(`/sandbox/state?user=${encodeURIComponent(me())}`).then((r) => r.json()),
  ]);
  panel.steps = steps.steps ?? [];
  panel.people = (state.users ?? []).filter((/** @type {Person} */ u) => !u.isBot);
}

/** @param {Param} p */
function field(p) {
  const id = `wf-input-${p.name}`;
  /** @type {HTMLElement} */
  let control;
  const people = (/** @type {boolean} */ multiple) =>
    h('select', { id, name: p.name, multiple, ...(multiple ? { size: '4' } : {}) }, [
      ...(multiple ? [] : [h('option', { value: '' }, ['—'])]),
      ...panel.people.map((u) =>
        h(
          'option',
          { value: u.id, selected: !multiple && RUNNER_INPUTS.has(p.name) && u.id === me() },
          [u.realName],
        ),
      ),
    ]);
  if (p.type === USER) control = people(false);
  else if (p.type === 'array' && p.itemsType === USER) control = people(true);
  else if (p.type === 'slack#/types/date') control = h('input', { id, name: p.name, type: 'date' });
  else if (p.name === 'description' || p.name === 'text') {
    control = h('textarea', { id, name: p.name, rows: '2' });
  } else control = h('input', { id, name: p.name, type: 'text', placeholder: p.hint ?? '' });
  const label = `${p.title}${p.isRequired ? ' (required)' : ''}`;
  return h('div', { class: 'wf-field' }, [
    h('label', { for: id }, [label]),
    control,
    ...(p.description ? [h('small', {}, [p.description])] : []),
  ]);
}

function drawForm() {
  const form = byId('workflows-form', HTMLFormElement);
  const step = panel.step;
  form.replaceChildren();
  $('workflows-result').replaceChildren();
  if (!step) return;
  form.append(
    h('p', { class: 'wf-about' }, [step.description]),
    ...step.inputs.map(field),
    h('button', { type: 'submit', class: 'primary' }, ['Run step']),
  );
}

/** @param {HTMLFormElement} form */
function readInputs(form) {
  /** @type {Record<string, string | string[]>} */
  const inputs = {};
  for (const p of panel.step?.inputs ?? []) {
    const control = form.elements.namedItem(p.name);
    if (control instanceof HTMLSelectElement && control.multiple) {
      inputs[p.name] = [...control.selectedOptions].map((o) => o.value);
    } else if (
      control instanceof HTMLInputElement ||
      control instanceof HTMLTextAreaElement ||
      control instanceof HTMLSelectElement
    ) {
      inputs[p.name] = control.value;
    }
  }
  return inputs;
}

/** @param {unknown} value */
function shownValue(value) {
  if (Array.isArray(value)) {
    return value
      .map((id) => panel.people.find((u) => u.id === id)?.realName ?? String(id))
      .join(', ');
  }
  return String(value);
}

/** @param {import('./types.js').StepRunAnswer} result */
function drawResult(result) {
  const out = $('workflows-result');
  if (!result.ok) {
    out.replaceChildren(h('p', { class: 'wf-problem', role: 'alert' }, [result.problem]));
    return;
  }
  if (result.state === 'failed') {
    out.replaceChildren(
      h('h3', {}, ['The step failed']),
      h('p', { class: 'wf-problem', role: 'alert' }, [result.error]),
    );
    return;
  }
  const titles = new Map((panel.step?.outputs ?? []).map((p) => [p.name, p.title]));
  const rows = Object.entries(result.outputs).flatMap(([name, value]) => [
    h('dt', {}, [titles.get(name) ?? name]),
    h('dd', {}, [shownValue(value)]),
  ]);
  out.replaceChildren(
    h('h3', {}, ['The step completed']),
    h('dl', { 'aria-label': 'Outputs' }, rows),
  );
}

async function run(/** @type {Event} */ ev) {
  ev.preventDefault();
  const form = ev.target;
  if (!panel.step || panel.busy || !(form instanceof HTMLFormElement)) return;
  panel.busy = true;
  const out = $('workflows-result');
  out.replaceChildren(h('p', { role: 'status' }, ['Running…']));
  try {
    const res = await fetch('/sandbox/workflows/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: me(),
        callbackId: panel.step.callbackId,
        inputs: readInputs(form),
      }),
    });
    drawResult(await res.json());
    out.scrollIntoView({ block: 'nearest' });
  } catch (e) {
    drawResult({ ok: false, problem: `The sandbox server did not answer: ${e}` });
  } finally {
    panel.busy = false;
  }
}

async function open() {
  const dialog = byId('workflows', HTMLDialogElement);
  await load();
  const picker = byId('workflows-step', HTMLSelectElement);
  picker.replaceChildren(
    ...panel.steps.map((s) => h('option', { value: s.callbackId }, [s.title])),
  );
  panel.step = panel.steps[0] ?? null;
  drawForm();
  if (!dialog.open) dialog.showModal();
}

function boot() {
  $('workflows-open').addEventListener('click', () => void open());
  const picker = byId('workflows-step', HTMLSelectElement);
  picker.addEventListener('change', () => {
    const id = picker.value;
    panel.step = panel.steps.find((s) => s.callbackId === id) ?? null;
    drawForm();
  });
  $('workflows-form').addEventListener('submit', (ev) => void run(ev));
  $('workflows-close').addEventListener('click', () =>
    byId('workflows', HTMLDialogElement).close(),
  );
}

boot();
