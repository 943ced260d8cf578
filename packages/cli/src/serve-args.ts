/**
 * `skilltree serve` flags, parsed on their own (serve has flags no other command takes).
 */
import { parseArgs } from 'node:util';
import { CliError, errorMessage, USAGE_ERROR } from './errors.js';

/** What `skilltree serve` was asked for. */
export interface ServeArgs {
  /** The agent module as given. */
  module: string;
  /** Default 3000; 0 picks a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host: string;
  /** `memory`, `sqlite:<file>`, `postgres://…` or `redis://…`. Default `memory`. */
  store: string;
  model?: string;
  /** Processes serving the port (node:cluster). Default 1. */
  workers: number;
  /** Turns one user may start per minute; 0 turns the limit off. Default 30. */
  turnsPerMinute: number;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  maxSteps?: number;
  /** Skip the built-in chat page at `/` (API only). */
  noPage: boolean;
  help: boolean;
}

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  store: { type: 'string' },
  model: { type: 'string' },
  workers: { type: 'string' },
  'turns-per-minute': { type: 'string' },
  'max-loaded-skills': { type: 'string' },
  'max-transcript-messages': { type: 'string' },
  'max-steps': { type: 'string' },
  'no-page': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The `skilltree serve --help` text. */
export const SERVE_HELP = `Usage: skilltree serve <module> [options]

Serve the agent over HTTP: the API a web app's useChat (AI SDK) talks to, and a small chat page.
  POST /api/chat           one turn; answers with the AI SDK UI message stream
  GET  /api/chat/:id       the conversation as UIMessage[]
  GET  /api/sessions/:id   the session: loaded skills, stores, usage
  GET  /                   the chat page

Who may chat: the module's "authorize" export, (request) => userId | null, when it has one;
otherwise loopback clients only (one local user). See docs/serving.md.

Options:
  -p, --port <n>                   port (default 3000; 0 picks a free one)
  --host <host>                    host to listen on (default 127.0.0.1)
  --store <spec>                   memory (default), sqlite:./sessions.db, postgres://… or redis://…
                                   (sqlite, postgres and redis need @skilltree/store and its driver)
  --workers <n>                    processes serving the port (node:cluster); needs a shared store
  --turns-per-minute <n>           turns one user may start per minute (default 30; 0: no limit)
  --no-page                        serve the API only
  --model <spec>                   anthropic:<model-id>, openai:<model-id>, scripted:<file.json> or demo
  --max-loaded-skills <n>          skills loaded at once (overrides <Agent maxLoadedSkills>)
  --max-transcript-messages <n>    transcript window sent to the model
  --max-steps <n>                  model calls per turn before the turn fails (default 20)
  -h, --help                       show this help
`;

/** The default port of `skilltree serve`. */
export const DEFAULT_SERVE_PORT = 3000;

function usage(message: string): CliError {
  return new CliError(`${message}\nRun "skilltree serve --help" for usage.`, USAGE_ERROR);
}

function integer(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw usage(`--${flag} needs a whole number from ${min} to ${max} (got "${value}").`);
  }
  return n;
}

/**
 * Parses the arguments after `serve`. Throws a {@link CliError} (exit code 2) on an unknown flag, a bad
 * value or a missing module.
 *
 * @example
 * parseServeArgs(['agent.tsx', '--port', '8080', '--store', 'sqlite:./sessions.db', '--workers', '2']);
 */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    const end = argv.indexOf('--');
    parsed = parseArgs({
      args: end === -1 ? [...argv] : argv.slice(0, end),
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usage(
      errorMessage(error)
        .replace(/\. To specify a positional argument.*$/s, '.')
        .replace(/^Unknown option '([^']+)'.*$/s, 'Unknown flag $1.'),
    );
  }
  const { values, positionals } = parsed;
  const help = values.help === true;
  if (positionals.length > 1) throw usage(`Unexpected argument "${positionals[1]}": serve takes one agent module.`);
  const module = positionals[0] ?? '';
  if (!module && !help) throw usage('Missing agent module: skilltree serve <module.tsx>.');
  const store = values.store?.trim() ?? 'memory';
  if (store === '') throw usage('--store needs a value: memory, sqlite:<file>, postgres://… or redis://….');
  if (values.model !== undefined && values.model.trim() === '') {
    throw usage('--model needs a value, e.g. anthropic:claude-sonnet-4-5.');
  }
  return {
    module,
    port: integer('port', values.port, 0, 65535) ?? DEFAULT_SERVE_PORT,
    host: values.host?.trim() || '127.0.0.1',
    store,
    model: values.model,
    workers: integer('workers', values.workers, 1, 64) ?? 1,
    turnsPerMinute: integer('turns-per-minute', values['turns-per-minute'], 0, 1_000_000) ?? 30,
    maxLoadedSkills: integer('max-loaded-skills', values['max-loaded-skills'], 1, 1_000),
    maxTranscriptMessages: integer('max-transcript-messages', values['max-transcript-messages'], 1, 1_000_000),
    maxSteps: integer('max-steps', values['max-steps'], 1, 1_000),
    noPage: values['no-page'] === true,
    help,
  };
}
