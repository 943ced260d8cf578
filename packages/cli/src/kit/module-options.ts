/**
 * What an agent module may export besides the agent (`default`) and its `demo`: the model, the
 * session options, a budget, telemetry and `authorize`. Read and checked once, by the one loader,
 * so every command sees the same exports with the same errors. Which command uses which is in
 * docs/cli.md ("What each command reads").
 */
import type { Budget, Model, SessionsOptions, TelemetryOptions } from '@skilltree/core';
import type { Authorize } from '@skilltree/server';
import { CliError } from './errors.js';

/** A model for every chat, or a function of the chat (its id and owner) that returns one. */
export type ModuleModel = Model | ((id: string, owner: string | undefined) => Model);

/**
 * The session options a module may export as `sessionOptions`: what `createSessions` takes, less
 * what has its own export (`model`, `budget`, `telemetry`) or its own flag (`store`).
 */
export type ModuleSessionOptions = Omit<SessionsOptions, 'model' | 'store' | 'budget' | 'telemetry'>;

/** A budget for every user, or a function of the user that returns theirs (what `createHandler` takes). */
export type ModuleBudget = Budget | ((user: string) => Budget | undefined | Promise<Budget | undefined>);

/** The optional exports of an agent module, checked. */
export interface ModuleOptions {
  /** `export const model`: the model (or a model per chat). `--model` wins over it. */
  model?: ModuleModel;
  /** `export const sessionOptions`: `maxSteps`, `windowMode`, `toolTimeout`… The flags of the same options win. */
  sessionOptions?: ModuleSessionOptions;
  /** `export const budget` (serve): each user's budget. */
  budget?: ModuleBudget;
  /** `export const telemetry` (serve): how sessions and requests are traced. `--otlp` wins over its tracer. */
  telemetry?: boolean | TelemetryOptions;
  /** `export function authorize(request)` (serve): who is asking. */
  authorize?: Authorize;
}

/** Where each option that `sessionOptions` must not carry goes instead. */
const ELSEWHERE: Record<string, string> = {
  model: 'export it as "model"',
  budget: 'export it as "budget"',
  telemetry: 'export it as "telemetry"',
  store: 'pass --store',
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` is a model: an object with a `generate` function. */
export function isModel(value: unknown): value is Model {
  return (
    value !== null && typeof value === 'object' && typeof (value as { generate?: unknown }).generate === 'function'
  );
}

function readModel(value: unknown, name: string): ModuleModel | undefined {
  if (value === undefined) return undefined;
  if (isModel(value)) return value;
  if (typeof value === 'function') {
    const factory = value as (id: string, owner: string | undefined) => unknown;
    // Checked at each call: a factory that returns no model fails the chat that asked, with its name.
    return (id, owner) => {
      const model = factory(id, owner);
      if (!isModel(model)) {
        throw new Error(
          `${name}: "model" (a function of the chat) returned ${model === null ? 'null' : typeof model}, not a model with generate().`,
        );
      }
      return model;
    };
  }
  throw new CliError(
    `${name}: "model" must be a model (an object with generate()) or a function (id, owner) => model, ` +
      `e.g. export const model = anthropic({ model: 'claude-sonnet-4-5' }).`,
  );
}

function readSessionOptions(value: unknown, name: string): ModuleSessionOptions | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    throw new CliError(
      `${name}: "sessionOptions" must be an object of createSessions options, e.g. { maxSteps: 10, windowMode: 'stable' }.`,
    );
  }
  for (const key of Object.keys(value)) {
    if (key in ELSEWHERE) {
      throw new CliError(`${name}: "sessionOptions" must not hold "${key}": ${ELSEWHERE[key]} instead.`);
    }
  }
  return { ...value } as ModuleSessionOptions;
}

function readBudget(value: unknown, name: string): ModuleBudget | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function' || isPlainObject(value)) return value as ModuleBudget;
  throw new CliError(
    `${name}: "budget" must be a budget ({ perTurn?, perSession?, perOwner? }) or a function (user) => budget.`,
  );
}

function readTelemetry(value: unknown, name: string): boolean | TelemetryOptions | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  if (isPlainObject(value)) return value as TelemetryOptions;
  throw new CliError(
    `${name}: "telemetry" must be true, false or telemetry options ({ recordContent?, agentName?, attributes?, tracer? }).`,
  );
}

function readAuthorize(value: unknown, name: string): Authorize | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'function') return value as Authorize;
  throw new CliError(`${name}: "authorize" must be a function (request) => userId | null.`);
}

/**
 * Reads and checks the optional exports of an agent module. Throws a {@link CliError} that names the
 * export and what it must be.
 *
 * @param name The module as the user named it, for messages.
 */
export function readModuleOptions(exports: Readonly<Record<string, unknown>>, name: string): ModuleOptions {
  const options: ModuleOptions = {};
  const model = readModel(exports.model, name);
  if (model !== undefined) options.model = model;
  const sessionOptions = readSessionOptions(exports.sessionOptions, name);
  if (sessionOptions !== undefined) options.sessionOptions = sessionOptions;
  const budget = readBudget(exports.budget, name);
  if (budget !== undefined) options.budget = budget;
  const telemetry = readTelemetry(exports.telemetry, name);
  if (telemetry !== undefined) options.telemetry = telemetry;
  const authorize = readAuthorize(exports.authorize, name);
  if (authorize !== undefined) options.authorize = authorize;
  return options;
}
