/**
 * Every flag of every command in one table: its kind, the commands that take it, its help line and
 * its per-command default. `parseCliArgs` parses with it and `help.ts` prints it, so a flag is
 * declared once and a command that does not take it says so.
 */
import { parseArgs } from 'node:util';
import { STORE_SPECS } from '@skilltree/store';
import { type PriceChoice, parsePrice } from './cost.js';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';
import { MODEL_SPEC_HELP } from './pick-model.js';
import { DEFAULT_STORE } from './stored-session.js';

/** The commands that run an agent module (`eval`: an eval file). */
export type CommandName = 'chat' | 'run' | 'dev' | 'serve' | 'eval';

/** The subcommands `skilltree` knows: the module commands and `help`. */
export type Command = CommandName | 'help';

/** The module commands, in the order help lists them. */
export const COMMAND_NAMES: readonly CommandName[] = ['chat', 'run', 'dev', 'serve', 'eval'];

/** The subcommands, for "did you mean" checks. */
export const COMMANDS: readonly Command[] = [...COMMAND_NAMES, 'help'];

/** What the command line asked for. */
export interface CliArgs {
  command: Command;
  /** The agent module path as given (relative to the working directory), if any. */
  module?: string;
  /** `-m/--message`, in order (run). */
  messages: string[];
  /** `--model` spec: `anthropic:<id>`, `openai:<id>`, `scripted:<file.json>` or `demo`. */
  model?: string;
  json: boolean;
  verbose: boolean;
  /** `--reasoning` (chat, run): print the model's reasoning, dimmed, as it thinks. */
  reasoning: boolean;
  /** `--file <path>` (run): files sent with the first message (repeatable). */
  file?: string[];
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  maxSteps?: number;
  /** `--session <name>`: save after each turn, resume when the store has it. */
  session?: string;
  /** `--store <spec>`: where sessions are kept (serve: `memory` by default). */
  store?: string;
  /** `--price`: what the per-turn cost line (and the playground's Cost view) prices usage with. */
  price?: PriceChoice;
  port?: number;
  host?: string;
  /** `serve --workers`: processes serving the port (node:cluster). */
  workers?: number;
  /** `serve --turns-per-minute`: turns one user may start per minute; 0 turns the limit off. */
  turnsPerMinute?: number;
  /** `serve --no-page`: skip the built-in chat page at `/` (API only). */
  noPage: boolean;
  /** `serve --otlp <url>`: export OpenTelemetry traces over OTLP/HTTP to this URL. */
  otlp?: string;
  /** `eval --trials`: trials of every case, over the suite's. */
  trials?: number;
  /** `eval --concurrency`: trials running at once. */
  concurrency?: number;
  /** `eval --case`: only the cases whose names contain one of these. */
  case?: string[];
  /** `eval --variant`: only these variants. */
  variant?: string[];
  /** `eval --threshold`: thresholds added to the suite's. */
  threshold?: string[];
  /** `eval --report`: files the report is written to (`.html` or `.json`). */
  report?: string[];
  /** `eval --record <dir>`: record each trial's conversation there. */
  record?: string;
  /** `eval --replay <dir>`: replay the conversations recorded there. */
  replay?: string;
  help: boolean;
  version: boolean;
}

/** One flag of the table. */
export interface Flag {
  /** The long name, without `--`. */
  name: string;
  short?: string;
  /**
   * `boolean`, `string`, `list` (repeatable string) or `integer` (a whole number in `range`).
   */
  kind: 'boolean' | 'string' | 'list' | 'integer';
  /** The commands that take it. */
  commands: readonly CommandName[];
  /** The value's placeholder in help, e.g. `<n>`. */
  value?: string;
  /** The help line. */
  help: string;
  /** A command's own help line, where it differs. */
  helpFor?: Partial<Record<CommandName, string>>;
  /** For `integer`: the smallest and largest value taken. */
  range?: readonly [number, number];
  /** The value a command uses when the flag is not given. */
  defaults?: Partial<Record<CommandName, string | number | boolean>>;
  /** Only together with this flag, for these commands. */
  needs?: { flag: string; commands: readonly CommandName[]; why: string };
  /** Checks a given value; returns a message for a usage error, or nothing. */
  check?: (value: string, command: CommandName) => string | undefined;
}

const ALL = COMMAND_NAMES;
const LIMITS: readonly CommandName[] = ['chat', 'run', 'dev', 'serve'];

/** The flag table. */
export const FLAGS: readonly Flag[] = [
  {
    name: 'message',
    short: 'm',
    kind: 'list',
    commands: ['run'],
    value: '<text>',
    help: 'the user message (repeatable)',
  },
  {
    name: 'json',
    kind: 'boolean',
    commands: ['run', 'eval'],
    help: 'print { reply, transcript, request, loadedSkills, steps, usage, estimate } as JSON (no cost line)',
    helpFor: { eval: 'print the report as JSON on stdout instead of the table' },
  },
  {
    name: 'model',
    kind: 'string',
    commands: ALL,
    value: '<spec>',
    help: MODEL_SPEC_HELP,
    check: (value) => (value.trim() === '' ? `--model needs a value: ${MODEL_SPEC_HELP}.` : undefined),
  },
  {
    name: 'max-loaded-skills',
    kind: 'integer',
    commands: LIMITS,
    value: '<n>',
    range: [1, 1_000],
    help: 'skills loaded at once (overrides <Agent maxLoadedSkills>)',
  },
  {
    name: 'max-transcript-messages',
    kind: 'integer',
    commands: LIMITS,
    value: '<n>',
    range: [1, 1_000_000],
    help: 'transcript window sent to the model (overrides <Agent maxTranscriptMessages>)',
  },
  {
    name: 'max-steps',
    kind: 'integer',
    commands: ['chat', 'run', 'serve'],
    value: '<n>',
    range: [1, 1_000],
    help: 'model calls per turn before the turn fails (default 20)',
  },
  {
    name: 'session',
    kind: 'string',
    commands: ['chat', 'run'],
    value: '<name>',
    help: 'save the session after each turn; resume it when it exists',
    check: (value) =>
      value === '' || value.length > 200 || /[\p{Cc}\p{Cf}]/u.test(value)
        ? '--session needs a name: 1 to 200 printable characters, e.g. --session cart.'
        : undefined,
  },
  {
    name: 'store',
    kind: 'string',
    commands: ['chat', 'run', 'serve'],
    value: '<spec>',
    help: `where --session keeps sessions: ${STORE_SPECS}\n(default ${DEFAULT_STORE}; a backend needs its driver installed)`,
    helpFor: {
      serve: `where sessions are kept: ${STORE_SPECS}\n(default memory; a backend needs its driver installed)`,
    },
    defaults: { serve: 'memory' },
    needs: { flag: 'session', commands: ['chat', 'run'], why: 'the session to keep in it' },
    check: (value) => (value.trim() === '' ? `--store needs a value: ${STORE_SPECS}.` : undefined),
  },
  {
    name: 'price',
    kind: 'string',
    commands: ['chat', 'run', 'dev', 'eval'],
    value: '<model|in,out[,cacheRead[,cacheWrite]]>',
    help: "price for the cost estimate: a model of the price table or US dollars per million tokens\n(default: the table's price for the model's name)",
  },
  {
    name: 'port',
    short: 'p',
    kind: 'integer',
    commands: ['dev', 'serve'],
    value: '<n>',
    range: [0, 65_535],
    help: 'port (default 4300; 0 picks a free one)',
    helpFor: { serve: 'port (default 3000; 0 picks a free one)' },
    defaults: { serve: 3000 },
  },
  {
    name: 'host',
    kind: 'string',
    commands: ['dev', 'serve'],
    value: '<host>',
    help: 'host to listen on (default 127.0.0.1)',
    defaults: { serve: '127.0.0.1' },
  },
  {
    name: 'workers',
    kind: 'integer',
    commands: ['serve'],
    value: '<n>',
    range: [1, 64],
    help: 'processes serving the port (node:cluster); needs a shared store',
    defaults: { serve: 1 },
  },
  {
    name: 'turns-per-minute',
    kind: 'integer',
    commands: ['serve'],
    value: '<n>',
    range: [0, 1_000_000],
    help: 'turns one user may start per minute (default 30; 0: no limit)',
    defaults: { serve: 30 },
  },
  { name: 'no-page', kind: 'boolean', commands: ['serve'], help: 'serve the API only' },
  {
    name: 'otlp',
    kind: 'string',
    commands: ['serve'],
    value: '<url>',
    help: 'export traces over OTLP/HTTP, e.g. http://localhost:4318/v1/traces (default: $OTEL_EXPORTER_OTLP_ENDPOINT)',
    check: (value) =>
      /^https?:\/\/[^\s/]+/.test(value.trim())
        ? undefined
        : `--otlp needs an http(s) URL, e.g. http://localhost:4318/v1/traces (got "${value}").`,
  },
  {
    name: 'trials',
    kind: 'integer',
    commands: ['eval'],
    value: '<n>',
    range: [1, 1_000],
    help: "trials of every case (default: the suite's, else 1)",
  },
  {
    name: 'concurrency',
    kind: 'integer',
    commands: ['eval'],
    value: '<n>',
    range: [1, 64],
    help: 'trials running at once (default 4)',
  },
  {
    name: 'case',
    kind: 'list',
    commands: ['eval'],
    value: '<text>',
    help: 'only the cases whose names contain it (repeatable)',
  },
  { name: 'variant', kind: 'list', commands: ['eval'], value: '<name>', help: 'only this variant (repeatable)' },
  {
    name: 'threshold',
    kind: 'list',
    commands: ['eval'],
    value: '"<metric> <op> <n>"',
    help: 'fail unless it holds, e.g. "selection.recall >= 0.9" (repeatable)',
  },
  {
    name: 'report',
    kind: 'list',
    commands: ['eval'],
    value: '<file>',
    help: 'write the report: .html (one self-contained page) or .json (repeatable)',
  },
  {
    name: 'record',
    kind: 'string',
    commands: ['eval'],
    value: '<dir>',
    help: "record each trial's conversation under <dir>",
  },
  {
    name: 'replay',
    kind: 'string',
    commands: ['eval'],
    value: '<dir>',
    help: 'replay the conversations recorded under <dir>: no model, no key',
  },
  {
    name: 'verbose',
    kind: 'boolean',
    commands: ['chat', 'run'],
    help: 'print skill loads, tool calls and results on stderr',
    helpFor: { chat: 'also print contextChanged lines, store changes and whole tool results' },
  },
  {
    name: 'reasoning',
    kind: 'boolean',
    commands: ['chat', 'run'],
    help: "print the model's reasoning, dimmed, as it thinks (its readable text only)",
    helpFor: { run: "print the model's reasoning on stderr, dimmed, as it thinks (its readable text only)" },
  },
  {
    name: 'file',
    kind: 'list',
    commands: ['run'],
    value: '<path>',
    help: 'a file (image, PDF, text) sent with the first message (repeatable); its bytes decide its type',
  },
  { name: 'help', short: 'h', kind: 'boolean', commands: ALL, help: 'show help' },
  { name: 'version', short: 'v', kind: 'boolean', commands: ALL, help: 'show the version' },
];

/** The flags `command` takes, in table order. */
export function flagsOf(command: CommandName): Flag[] {
  return FLAGS.filter((flag) => flag.commands.includes(command));
}

/** `parseArgs`' options for the whole table. */
const OPTIONS = Object.fromEntries(
  FLAGS.map((flag) => [
    flag.name,
    {
      type: flag.kind === 'boolean' ? 'boolean' : 'string',
      ...(flag.short ? { short: flag.short } : {}),
      ...(flag.kind === 'list' ? { multiple: true } : {}),
    },
  ]),
) as Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }>;

/** The help page that lists `command`'s flags: serve and eval have their own, the others are on the general one. */
function usageHint(command: Command | undefined): string {
  return command === 'serve' || command === 'eval' ? `skilltree ${command} --help` : 'skilltree --help';
}

function usage(message: string, command?: Command): CliError {
  return new CliError(`${message}\nRun "${usageHint(command)}" for usage.`, USAGE_ERROR);
}

function integer(flag: Flag, value: string, command: Command): number {
  const [min, max] = flag.range ?? [0, Number.MAX_SAFE_INTEGER];
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw usage(
      `--${flag.name} needs a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''} (got "${value}").`,
      command,
    );
  }
  return n;
}

/** `max-loaded-skills` → `maxLoadedSkills`. */
const camel = (name: string) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * Parses `argv` (without `node` and the script). Throws a {@link CliError} with exit code 2 on an
 * unknown command or flag, a missing value, or a flag the command does not take.
 *
 * @example
 * parseCliArgs(['run', 'agent.tsx', '-m', 'hi', '--json']);
 * // { command: 'run', module: 'agent.tsx', messages: ['hi'], json: true, ... }
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  // Everything after `--` belongs to the agent module (it reads process.argv), not to skilltree.
  const end = argv.indexOf('--');
  const own = end === -1 ? [...argv] : argv.slice(0, end);
  const named = own.find((arg) => !arg.startsWith('-'));
  const hinted = (COMMANDS as readonly string[]).includes(named ?? '') ? (named as Command) : undefined;
  let parsed: { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: own, options: OPTIONS, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    // Node's messages are long and mention parseArgs internals; keep the useful first sentence.
    const message = errorMessage(error)
      .replace(/\. To specify a positional argument.*$/s, '.')
      .replace(/^Unknown option '([^']+)'.*$/s, 'Unknown flag $1.');
    throw usage(message, hinted);
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  const version = values.version === true;
  const [first, ...rest] = positionals;
  let command: Command;
  if (first === undefined) {
    if (help || version) command = 'help';
    else throw usage('Missing command: chat, run, dev, serve or eval.');
  } else if ((COMMANDS as readonly string[]).includes(first)) {
    command = first as Command;
  } else if (/\.(tsx?|mts|jsx?|mjs)$/.test(first)) {
    throw usage(`Missing command before "${first}": try "skilltree chat ${first}".`);
  } else {
    throw usage(`Unknown command "${first}". Commands: ${COMMANDS.join(', ')}.`);
  }
  const args: CliArgs = {
    command,
    messages: [],
    json: false,
    verbose: false,
    reasoning: false,
    noPage: false,
    help,
    version,
  };
  if (command === 'help') return { ...args, help: true, module: rest[0] };
  const takes = command === 'eval' ? 'one eval file' : 'one agent module';
  if (rest.length > 1) throw usage(`Unexpected argument "${rest[1]}": ${command} takes ${takes}.`, command);
  for (const flag of FLAGS) {
    if (values[flag.name] !== undefined && !flag.commands.includes(command)) {
      throw usage(`--${flag.name} is not a flag of "${command}" (only of ${flag.commands.join(', ')}).`, command);
    }
  }
  args.module = rest[0];
  if (!args.module && !help && !version) {
    throw usage(
      command === 'eval'
        ? 'Missing eval file: skilltree eval <file.eval.tsx>.'
        : `Missing agent module: skilltree ${command} <module.tsx>.`,
      command,
    );
  }
  const out = args as unknown as Record<string, unknown>;
  for (const flag of flagsOf(command)) {
    if (flag.name === 'help' || flag.name === 'version') continue;
    const given = values[flag.name];
    const key = flag.name === 'message' ? 'messages' : camel(flag.name);
    if (given === undefined) {
      const fallback = flag.defaults?.[command];
      if (fallback !== undefined) out[key] = fallback;
      continue;
    }
    if (flag.needs?.commands.includes(command) && values[flag.needs.flag] === undefined) {
      throw usage(`--${flag.name} needs --${flag.needs.flag} <name>: ${flag.needs.why}.`, command);
    }
    if (typeof given === 'string') {
      const problem = flag.check?.(given, command);
      if (problem) throw usage(problem, command);
    }
    if (flag.kind === 'integer') out[key] = integer(flag, given as string, command);
    else if (flag.name === 'price') out[key] = parsePrice(given as string);
    else if (flag.name === 'store' || flag.name === 'host')
      out[key] = (given as string).trim() || flag.defaults?.[command];
    else out[key] = given;
  }
  return args;
}
