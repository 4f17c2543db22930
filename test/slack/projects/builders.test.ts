/**
 * The pure parts: id checks, form reading (what counts as changed), the service-message
 * mapping, and the builders' Block Kit limits with large or partial data.
 */
import { describe, expect, it } from 'vitest';
import { homeView } from '../../../src/slack/home/home-view.js';
import { projectIdProblem } from '../../../src/slack/parse/service-id.js';
import { projectCard } from '../../../src/slack/projects/card/project-card.js';
import { customersMessage } from '../../../src/slack/projects/directory/directory-lists.js';
import { PROJECT_BLOCK, PROJECT_INPUT } from '../../../src/slack/projects/form/fields.js';
import {
  errorsFor,
  hashText,
  type ProjectSnapshot,
  readCreateForm,
  readEditForm,
  readEditMeta,
} from '../../../src/slack/projects/form/read.js';
import { packed } from '../../../src/slack/ui/blocks.js';
import type { StateValues } from '../../../src/slack/ui/state-values.js';

const original: ProjectSnapshot = {
  name: 'Alpha',
  customerId: 'c1c1c1c1c1c1',
  startDate: '2026-01-01',
  dueDate: '2026-01-31',
  descriptionHash: hashText('Old'),
  descriptionEditable: true,
  priority: true,
  estimate: false,
  milestone: true,
  defaultPriority: 'Low',
};

describe('projectIdProblem', () => {
  it('accepts id-like strings and explains the rest', () => {
    expect(projectIdProblem('65a1f0c2e4b0a1b2c3d4e5f6')).toBeUndefined();
    expect(projectIdProblem(' proj_0123456789 ')).toBeUndefined();
    expect(projectIdProblem('')).toMatch(/^Name the project by its id/);
    expect(projectIdProblem('123')).toMatch(/too short/);
    expect(projectIdProblem('<id>')).toMatch(/^Replace/);
    expect(projectIdProblem('65a1f0c2e4b0a1b2c3d4e5f6;drop')).toMatch(/is not a project id/);
    expect(projectIdProblem('x'.repeat(101))).toBe('That is too long to be a project id.');
    // What is typed is shown clipped, never breaking the code span.
    expect(projectIdProblem(`\`${'y'.repeat(80)}!`)).toMatch(/^`y{40}…` is not/);
  });
});

describe('readCreateForm', () => {
  it('builds the body from what was filled in, leaving out what was not', () => {
    const values: StateValues = {
      [PROJECT_BLOCK.name]: { [PROJECT_INPUT.name]: { value: '  Beta  ' } },
      [PROJECT_BLOCK.start]: { [PROJECT_INPUT.start]: { selected_date: null } },
      [PROJECT_BLOCK.due]: { [PROJECT_INPUT.due]: { selected_date: '2026-02-02' } },
      [PROJECT_BLOCK.customer]: { [PROJECT_INPUT.customer]: { selected_option: null } },
    };
    expect(readCreateForm(values)).toEqual({
      ok: true,
      value: { body: { projectName: 'Beta', dueDate: '2026-02-02' }, linkChannel: false },
    });
  });
});

describe('readEditForm', () => {
  it('sends nothing when nothing changed, and treats missing fields as unchanged', () => {
    const same: StateValues = {
      [PROJECT_BLOCK.name]: { [PROJECT_INPUT.name]: { value: 'Alpha' } },
      [PROJECT_BLOCK.description]: { [PROJECT_INPUT.description]: { value: 'Old' } },
      [PROJECT_BLOCK.features]: {
        [PROJECT_INPUT.features]: {
          selected_options: [{ value: 'priority' }, { value: 'milestone' }],
        },
      },
      [PROJECT_BLOCK.defaultPriority]: {
        [PROJECT_INPUT.defaultPriority]: { selected_option: { value: 'Low' } },
      },
    };
    expect(readEditForm(same, original)).toEqual({ ok: true, value: { body: {}, changes: [] } });
    expect(readEditForm({}, original)).toEqual({ ok: true, value: { body: {}, changes: [] } });
  });

  it('clears the description when emptied, and checks dates against the kept ones', () => {
    const cleared: StateValues = {
      [PROJECT_BLOCK.description]: { [PROJECT_INPUT.description]: { value: null } },
    };
    expect(readEditForm(cleared, original)).toEqual({
      ok: true,
      value: { body: { description: '' }, changes: ['description'] },
    });
    const lateStart: StateValues = {
      [PROJECT_BLOCK.start]: { [PROJECT_INPUT.start]: { selected_date: '2026-02-15' } },
    };
    expect(readEditForm(lateStart, original)).toEqual({
      ok: false,
      errors: {
        [PROJECT_BLOCK.start]: 'The start date must not be after the due date (2026-01-31).',
      },
    });
  });

  it('never sends a description it could not show', () => {
    const values: StateValues = {
      [PROJECT_BLOCK.description]: { [PROJECT_INPUT.description]: { value: 'short' } },
    };
    const long = { ...original, descriptionEditable: false };
    expect(readEditForm(values, long)).toEqual({ ok: true, value: { body: {}, changes: [] } });
  });

  it('refuses an unknown default priority under its field', () => {
    const values: StateValues = {
      [PROJECT_BLOCK.defaultPriority]: {
        [PROJECT_INPUT.defaultPriority]: { selected_option: { value: 'Whenever' } },
      },
    };
    const result = readEditForm(values, original);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[PROJECT_BLOCK.defaultPriority]).toMatch(/^Choose one of/);
  });
});

describe('errorsFor and metadata', () => {
  it('puts a service message under the field it names, else under the name', () => {
    expect(errorsFor('startDate: must not be after dueDate (2026-01-01)')).toEqual({
      [PROJECT_BLOCK.start]: 'startDate: must not be after dueDate (2026-01-01)',
    });
    expect(errorsFor('Something odd')).toEqual({ [PROJECT_BLOCK.name]: 'Something odd' });
    expect(errorsFor('customerId: unknown', [PROJECT_BLOCK.name])).toEqual({
      [PROJECT_BLOCK.name]: 'customerId: unknown',
    });
  });

  it('rejects junk metadata', () => {
    expect(readEditMeta('not json')).toBeUndefined();
    expect(readEditMeta('{"projectId":"p","original":null}')).toBeUndefined();
    expect(readEditMeta(JSON.stringify({ projectId: 'p', original }))?.original).toEqual(original);
  });
});

describe('builders within Block Kit limits', () => {
  it('packs a long customer list into few sections and says how many were left out', () => {
    const customers = Array.from({ length: 1000 }, (_, i) => ({
      customerId: `cust${i}`,
      companyName: `Company ${String(i).padStart(4, '0')} ${'x'.repeat(150)}`,
      clients: [{ clientId: `cl${i}`, name: 'Someone', email: 'someone@example.com' }],
    }));
    const { blocks } = customersMessage(customers);
    expect(blocks.length).toBeLessThanOrEqual(50);
    for (const b of blocks) {
      const text = (b as { text?: { text: string } }).text?.text ?? '';
      expect(text.length).toBeLessThanOrEqual(3000);
    }
    expect(JSON.stringify(blocks.at(-1))).toMatch(/…and \d+ more\./);
    expect(packed('t', [])).toHaveLength(1);
  });

  it('keeps the Home under 100 blocks with many links, projects and commands', () => {
    const view = homeView({
      admin: true,
      connection: { workspaceName: 'W', connectedBy: 'U1', connectedAt: 'today' },
      links: Array.from({ length: 300 }, (_, i) => ({
        channelId: `C${i}`,
        projectId: `p${i}`,
        projectName: `Project ${i}`,
      })),
      projects: Array.from({ length: 100 }, (_, i) => ({
        projectId: `p${i}`,
        projectName: `Project ${i}`,
      })),
      commands: Array.from({ length: 40 }, (_, i) => ({
        usage: `cmd${i}`,
        summary: 'does things',
        group: `G${i % 5}`,
      })),
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const shown = JSON.stringify(view.blocks);
    expect(shown).toContain('home_new_task');
    expect(shown).toContain('…and 85 more.');
    expect(shown).toContain('<#C299>');
  });

  it('shows ids where the directory lists could not be loaded', () => {
    const card = projectCard(
      {
        project: {
          projectId: 'p1p1p1p1p1p1',
          projectName: 'P',
          ownerId: 'u-owner',
          customerId: 'c-9',
        },
        details: { _id: 'p1p1p1p1p1p1', IsGroupEnabled: true },
      },
      { canLink: false },
    );
    const shown = JSON.stringify(card.blocks);
    expect(shown).toContain('*Customer*\\nc-9');
    expect(shown).toContain('*Owner*\\nu-owner');
    expect(shown).toContain('*Groups:* _could not be loaded_');
    expect(shown).not.toContain('project_link');
  });
});
