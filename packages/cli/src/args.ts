/**
 * Command-line parsing with `node:util` `parseArgs`: one command, one agent module, flags.
 */
import { parseArgs } from 'node:util';
import { type PriceChoice, parsePrice } from './cost.js';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';

/** The subcommands `skilltree` knows. */
export type Command = 'chat' | 'run' | 'dev' | 'help';

/** The commands, for help and for "did you mean" checks. */
export const COMMANDS: readonly Command[] = ['chat', 'run', 'dev', 'help'];

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
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  maxSteps?: number;
  /** `--session <name>`: save after each turn, resume when the store has it. */
  session?: string;
  /** `--store sqlite:<file>`: where `--session` keeps sessions. */
  store?: string;
  /** `--price`: what the per-turn cost line (and the playground's Cost view) prices usage with. */
  price?: PriceChoice;
  port?: number;
  host?: string;
  help: boolean;
  version: boolean;
}

const OPTIONS = {
  message: { type: 'string', short: 'm', multiple: true },
  model: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  'max-loaded-skills': { type: 'string' },
  'max-transcript-messages': { type: 'string' },
  'max-steps': { type: 'string' },
  session: { type: 'string' },
  store: { type: 'string' },
  price: { type: 'string' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** Flags that only some commands accept. */
const ONLY: Record<string, Command[]> = {
  message: ['run'],
  json: ['run'],
  port: ['dev'],
  host: ['dev'],
  session: ['chat', 'run'],
  store: ['chat', 'run'],
  verbose: ['chat', 'run'],
  'max-steps': ['chat', 'run'],
  price: ['chat', 'run', 'dev'],
};

function usage(message: string): CliError {
  return new CliError(`${message}\nRun "skilltree --help" for usage.`, USAGE_ERROR);
}

function integer(flag: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw usage(
      `--${flag} needs a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''} (got "${value}").`,
    );
  }
  return n;
}

/**
 * Parses `argv` (without `node` and the script). Throws a {@link CliError} with exit code 2 on an
 * unknown command or flag, a missing value, or a flag the command does not take.
 *
 * @example
 * parseCliArgs(['run', 'agent.tsx', '-m', 'hi', '--json']);
 * // { command: 'run', module: 'agent.tsx', messages: ['hi'], json: true, ... }
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    // Everything after `--` belongs to the agent module (it reads process.argv), not to skilltree.
    const end = argv.indexOf('--');
    const own = end === -1 ? [...argv] : argv.slice(0, end);
    parsed = parseArgs({ args: own, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // Node's messages are long and mention parseArgs internals; keep the useful first sentence.
    const message = errorMessage(error)
      .replace(/\. To specify a positional argument.*$/s, '.')
      .replace(/^Unknown option '([^']+)'.*$/s, 'Unknown flag $1.');
    throw usage(message);
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  const version = values.version === true;
  const [first, ...rest] = positionals;
  let command: Command;
  if (first === undefined) {
    if (help || version) command = 'help';
    else throw usage('Missing command: chat, run or dev.');
  } else if ((COMMANDS as readonly string[]).includes(first)) {
    command = first as Command;
  } else if (/\.(tsx?|mts|jsx?|mjs)$/.test(first)) {
    throw usage(`Missing command before "${first}": try "skilltree chat ${first}".`);
  } else {
    throw usage(`Unknown command "${first}". Commands: ${COMMANDS.join(', ')}.`);
  }
  if (command === 'help') {
    return { command, messages: [], json: false, verbose: false, help: true, version, module: rest[0] };
  }
  if (rest.length > 1) throw usage(`Unexpected argument "${rest[1]}": ${command} takes one agent module.`);
  for (const [flag, commands] of Object.entries(ONLY)) {
    if ((values as Record<string, unknown>)[flag] !== undefined && !commands.includes(command)) {
      throw usage(`--${flag} is not a flag of "${command}" (only of ${commands.join(', ')}).`);
    }
  }
  const module = rest[0];
  if (!module && !help && !version) throw usage(`Missing agent module: skilltree ${command} <module.tsx>.`);
  const model = values.model;
  if (model !== undefined && model.trim() === '')
    throw usage('--model needs a value, e.g. anthropic:claude-sonnet-4-5.');
  const messages = values.message ?? [];
  const { session, store } = values;
  if (session !== undefined && (session === '' || session.length > 200 || /[\p{Cc}\p{Cf}]/u.test(session))) {
    throw usage('--session needs a name: 1 to 200 printable characters, e.g. --session cart.');
  }
  if (store !== undefined && session === undefined)
    throw usage('--store needs --session <name>: the session to keep in it.');
  if (store !== undefined && !/^sqlite:./.test(store) && !/\.(db|sqlite3?)$/i.test(store)) {
    throw usage(`--store takes sqlite:<file> (got "${store}"): chat and run keep sessions in SQLite.`);
  }
  return {
    command,
    module,
    messages,
    model,
    json: values.json === true,
    verbose: values.verbose === true,
    maxLoadedSkills: integer('max-loaded-skills', values['max-loaded-skills'], 1),
    maxTranscriptMessages: integer('max-transcript-messages', values['max-transcript-messages'], 1),
    maxSteps: integer('max-steps', values['max-steps'], 1),
    session,
    store,
    price: values.price === undefined ? undefined : parsePrice(values.price),
    port: integer('port', values.port, 0, 65535),
    host: values.host,
    help,
    version,
  };
}
