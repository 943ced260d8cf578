/**
 * The command line, parsed with the flag table (`flag-table.ts`): every flag is declared once there,
 * so `parseCliArgs` knows each one's kind and default, and a command that does not take a flag says so.
 */
import { parseArgs } from 'node:util';
import { COMMANDS, type Command } from './command-names.js';
import { type PriceChoice, parsePrice } from './cost.js';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';
import { FLAGS, type Flag, flagsOf } from './flag-table.js';

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
  /** `serve --react-dev`: React's development build (`bin/skilltree.js` reads it before React loads; see kit/react-build). */
  reactDev?: boolean;
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
