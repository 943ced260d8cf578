/**
 * What an agent module may export besides the agent (`default`) and its `demo`: the model, the
 * session options, a budget, telemetry, `authorize` and a durable `engine`. Read and checked once, by the one loader,
 * so every command sees the same exports with the same errors. Which command uses which is in
 * docs/cli.md ("What each command reads").
 */
import type { Budget, Model, SessionsOptions, TelemetryOptions } from '@skilltree/core';
import type { TurnEngine } from '@skilltree/core/provider';
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

/**
 * A durable-execution engine for `serve` (`dbosEngine(…)` of `@skilltree/durable/dbos`, or your own
 * `TurnEngine`), or a function that makes one. A function is called once in each serving process,
 * when it starts serving: a module that only `run`, `chat` or `dev` import makes no engine, and
 * each of `--workers N`'s processes makes its own (DBOS and Restate are one per process).
 */
export type ModuleEngine = TurnEngine | (() => TurnEngine | Promise<TurnEngine>);

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
  /** `export function engine()` (serve): the durable engine each serving process runs its turns on. */
  engine?: ModuleEngine;
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

/**
 * Whether `value` has the methods of a `TurnEngine` (`register`, `run`, `step`, `close`). An object
 * whose properties throw when read (a getter, a Proxy) is not one.
 */
export function isTurnEngine(value: unknown): value is TurnEngine {
  if (value === null || typeof value !== 'object') return false;
  const engine = value as Record<string, unknown>;
  try {
    return ['register', 'run', 'step', 'close'].every((key) => typeof engine[key] === 'function');
  } catch {
    return false;
  }
}

const ENGINE_EXAMPLE =
  'e.g. export function engine() { return dbosEngine({ connectionString: process.env.DATABASE_URL }) } (dbosEngine: @skilltree/durable/dbos)';

/** Whether `value` is a Promise (or another thenable). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** `isThenable`, for a value whose `then` may throw when read (it is then no Promise). */
function safelyThenable(value: unknown): value is PromiseLike<unknown> {
  try {
    return isThenable(value);
  } catch {
    return false;
  }
}

/** An error (or anything thrown) as one line of a message. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readEngine(
  value: unknown,
  name: string,
  sessionOptions: ModuleSessionOptions | undefined,
  rejected?: ReadonlyMap<unknown, unknown>,
): ModuleEngine | undefined {
  if (value === undefined) return undefined;
  if (sessionOptions?.engine !== undefined) {
    throw new CliError(
      `${name}: the engine is set twice, as "engine" and in "sessionOptions": keep the "engine" export and take it out of sessionOptions.`,
    );
  }
  if (isTurnEngine(value)) return value;
  if (typeof value === 'function') return value as () => TurnEngine | Promise<TurnEngine>;
  if (safelyThenable(value)) {
    // Made at import, in every command that imports the module: refused, and never left unhandled.
    value.then(undefined, () => {});
    const why = rejected?.has(value) ? `, and it rejected: ${describe(rejected.get(value))}` : '';
    throw new CliError(
      `${name}: "engine" is a Promise (made when the module was imported${why}): export a function that makes the engine instead (serve calls it once in each serving process; it may be async), ${ENGINE_EXAMPLE}.`,
    );
  }
  throw new CliError(
    `${name}: "engine" must be a durable engine (with register, run, step and close) or a function that returns one, ${ENGINE_EXAMPLE}.`,
  );
}

/** How long serve waits for the module's `engine` function to make its engine: 30 seconds. */
export const ENGINE_TIMEOUT = 30_000;

/**
 * The engine of a module's `engine` export, made now when it is a function (once per serving
 * process). Throws a {@link CliError} naming the export when the function throws, rejects, returns
 * no engine, or has not settled after `timeout` milliseconds (a Promise that never settles would
 * otherwise leave serve waiting on nothing, and Node would exit without a word).
 */
export async function makeEngine(engine: ModuleEngine, name: string, timeout = ENGINE_TIMEOUT): Promise<TurnEngine> {
  if (isTurnEngine(engine)) return engine;
  let made: unknown;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    // A referenced timer: it keeps the process alive while the engine is awaited.
    timer = setTimeout(
      () =>
        reject(
          new CliError(
            `${name}: "engine" has not returned an engine after ${timeout / 1000} s (a Promise that never settles?): make sure everything engine() awaits ends, or return the engine itself, ${ENGINE_EXAMPLE}.`,
          ),
        ),
      timeout,
    );
  });
  try {
    made = await Promise.race([Promise.resolve().then(() => engine()), late]);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${name}: "engine" failed: ${describe(error)}`);
  } finally {
    clearTimeout(timer);
  }
  if (!isTurnEngine(made)) {
    throw new CliError(
      `${name}: "engine" returned ${made === null ? 'null' : typeof made}, not a durable engine (with register, run, step and close); ${ENGINE_EXAMPLE}.`,
    );
  }
  return made;
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
 * @param rejected Promises that rejected while the module was imported, and why (see `load-module.ts`).
 */
export function readModuleOptions(
  exports: Readonly<Record<string, unknown>>,
  name: string,
  rejected?: ReadonlyMap<unknown, unknown>,
): ModuleOptions {
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
  const engine = readEngine(exports.engine, name, sessionOptions, rejected);
  if (engine !== undefined) options.engine = engine;
  return options;
}
