// Workflow Builder custom steps as Slack runs them, for the sandbox and the tests' fake Slack:
// - the step definitions, read from the manifest's top-level `functions` (as Slack reads them
//   when the app is created from manifest.yml);
// - the `function_executed` event Slack sends when a workflow reaches a step, in the shape
//   Slack documents (docs.slack.dev/reference/events/function_executed): the function's
//   definition with its parameters as lists, `inputs`, `function_execution_id`,
//   `workflow_execution_id` and a `bot_access_token` valid for that execution only;
// - the executions under way, and the two Web API methods that end one:
//   functions.completeSuccess (outputs) and functions.completeError (error). An execution ends
//   once; a second completion answers `function_execution_not_found`, as Slack does.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { z } from 'zod';
import { randomHex, slackId } from './slack-ids.js';

export interface StepParameter {
  name: string;
  type: string;
  title: string;
  description: string;
  isRequired: boolean;
  /** For arrays: the type of their items. */
  itemsType?: string;
  hint?: string;
}

export interface StepDefinition {
  callbackId: string;
  title: string;
  description: string;
  inputs: StepParameter[];
  outputs: StepParameter[];
}

const Parameter = z.looseObject({
  type: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  is_required: z.boolean().optional(),
  hint: z.string().optional(),
  items: z.looseObject({ type: z.string() }).optional(),
});
const Functions = z.record(
  z.string(),
  z.looseObject({
    title: z.string(),
    description: z.string().optional(),
    input_parameters: z.record(z.string(), Parameter).optional(),
    output_parameters: z.record(z.string(), Parameter).optional(),
  }),
);

/** The manifest's `functions` (already parsed from YAML or JSON); [] when it has none. */
export function stepDefinitions(manifest: unknown): StepDefinition[] {
  const raw = z.looseObject({ functions: z.unknown() }).safeParse(manifest);
  if (!raw.success || raw.data.functions === undefined) return [];
  const parsed = Functions.safeParse(raw.data.functions);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`app manifest: functions.${issue?.path.join('.')}: ${issue?.message}`);
  }
  const params = (list: Record<string, z.infer<typeof Parameter>> = {}): StepParameter[] =>
    Object.entries(list).map(([name, p]) => ({
      name,
      type: p.type,
      title: p.title ?? name,
      description: p.description ?? '',
      isRequired: p.is_required ?? false,
      ...(p.items ? { itemsType: p.items.type } : {}),
      ...(p.hint ? { hint: p.hint } : {}),
    }));
  return Object.entries(parsed.data).map(([callbackId, f]) => ({
    callbackId,
    title: f.title,
    description: f.description ?? '',
    inputs: params(f.input_parameters),
    outputs: params(f.output_parameters),
  }));
}

/** The steps of the manifest file at `path` ([] when there is no such file). */
export async function readStepDefinitions(path: string): Promise<StepDefinition[]> {
  if (!existsSync(path)) return [];
  return stepDefinitions(parse(await readFile(path, 'utf8')));
}

export interface FunctionExecution {
  id: string;
  workflowExecutionId: string;
  callbackId: string;
  inputs: Record<string, unknown>;
  /** The execution's own token (`bot_access_token`), accepted by the Web API until it ends. */
  token: string;
  state: 'running' | 'completed' | 'failed';
  outputs?: Record<string, unknown>;
  error?: string;
}

type Args = Record<string, unknown>;

/** The executions Slack has started, and the Web API methods that end them. */
export class FunctionExecutions {
  readonly all = new Map<string, FunctionExecution>();
  private readonly waiters = new Set<() => void>();

  /**
   * `open`: an execution id never started here is taken as one Slack started (the tests make
   * their events up); the sandbox knows every execution it started.
   */
  constructor(private readonly open = false) {}

  start(callbackId: string, inputs: Record<string, unknown>): FunctionExecution {
    const execution: FunctionExecution = {
      id: slackId('Fx'),
      workflowExecutionId: slackId('Wx'),
      callbackId,
      inputs,
      token: `xwfp-${randomHex(24)}`,
      state: 'running',
    };
    this.all.set(execution.id, execution);
    return execution;
  }

  /** Whether `token` is the token of an execution still running. */
  acceptsToken(token: string): boolean {
    for (const e of this.all.values()) if (e.token === token && e.state === 'running') return true;
    return false;
  }

  /** Resolves when the execution has ended (completed or failed). */
  ended(id: string): Promise<FunctionExecution> {
    return new Promise((resolve) => {
      const check = () => {
        const e = this.all.get(id);
        if (e && e.state !== 'running') {
          this.waiters.delete(check);
          resolve(e);
        }
      };
      this.waiters.add(check);
      check();
    });
  }

  /** functions.completeSuccess and functions.completeError, answered as Slack answers them. */
  methods(): Record<string, (args: Args) => Record<string, unknown>> {
    return {
      'functions.completeSuccess': (args) => {
        const outputs = objectArg(args.outputs);
        if (outputs === undefined) throw new FunctionsError('invalid_arguments');
        this.end(args, { state: 'completed', outputs });
        return {};
      },
      'functions.completeError': (args) => {
        const error = typeof args.error === 'string' ? args.error : '';
        if (!error) throw new FunctionsError('invalid_arguments');
        this.end(args, { state: 'failed', error });
        return {};
      },
    };
  }

  private end(args: Args, result: Pick<FunctionExecution, 'state' | 'outputs' | 'error'>): void {
    const id = typeof args.function_execution_id === 'string' ? args.function_execution_id : '';
    if (!id) throw new FunctionsError('invalid_arguments');
    let execution = this.all.get(id);
    if (!execution && this.open) {
      execution = {
        id,
        workflowExecutionId: '',
        callbackId: '',
        inputs: {},
        token: '',
        state: 'running',
      };
      this.all.set(id, execution);
    }
    if (execution?.state !== 'running') {
      throw new FunctionsError('function_execution_not_found');
    }
    Object.assign(execution, result);
    for (const w of [...this.waiters]) w();
  }
}

/** A Slack error name from a functions.* method. */
export class FunctionsError extends Error {
  constructor(readonly error: string) {
    super(error);
  }
}

/** Outputs arrive as an object (JSON posts) or as its JSON text (form posts). */
function objectArg(v: unknown): Record<string, unknown> | undefined {
  let value = v ?? {};
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const parsed = z.record(z.string(), z.unknown()).safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export interface FunctionExecutedOptions {
  teamId: string;
  appId: string;
  /** The user the authorization names (Slack's example: the app's installing context). */
  authorizedUserId: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
  verificationToken?: string;
}

/** The event_callback around a `function_executed` event, as Slack documents it. */
export function functionExecutedBody(
  step: StepDefinition,
  execution: Pick<FunctionExecution, 'id' | 'workflowExecutionId' | 'inputs' | 'token'>,
  o: FunctionExecutedOptions,
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const param = (p: StepParameter) => ({
    type: p.type,
    name: p.name,
    description: p.description,
    title: p.title,
    is_required: p.isRequired,
    ...(p.itemsType ? { items: { type: p.itemsType } } : {}),
  });
  return {
    token: o.verificationToken ?? 'XXYYZZ',
    team_id: o.teamId,
    ...(o.enterpriseId ? { enterprise_id: o.enterpriseId } : {}),
    api_app_id: o.appId,
    event: {
      type: 'function_executed',
      function: {
        id: `Fn${execution.id.slice(2)}`,
        callback_id: step.callbackId,
        title: step.title,
        description: step.description,
        type: 'app',
        input_parameters: step.inputs.map(param),
        output_parameters: step.outputs.map(param),
        app_id: o.appId,
        date_created: now,
        date_updated: now,
        date_deleted: 0,
      },
      inputs: execution.inputs,
      function_execution_id: execution.id,
      workflow_execution_id: execution.workflowExecutionId,
      event_ts: `${now}.${String(Date.now() % 1000).padStart(3, '0')}000`,
      bot_access_token: execution.token,
    },
    type: 'event_callback',
    event_id: slackId('Ev'),
    event_time: now,
    authorizations: [
      {
        enterprise_id: o.enterpriseId ?? null,
        team_id: o.teamId,
        user_id: o.authorizedUserId,
        is_bot: false,
        is_enterprise_install: o.isEnterpriseInstall ?? false,
      },
    ],
    is_ext_shared_channel: false,
  };
}
