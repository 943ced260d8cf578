/**
 * The flag table: every flag of every command, its kind, the commands that take it, its help line
 * and its per-command default. `parseCliArgs` parses with it and `help.ts` prints it.
 */
import { STORE_SPECS } from '@skilltree/store';
import { COMMAND_NAMES, type CommandName } from './command-names.js';
import { MODEL_SPEC_HELP } from './pick-model.js';
import { DEFAULT_STORE } from './stored-session.js';

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
    name: 'react-dev',
    kind: 'boolean',
    commands: ['serve'],
    help: "run React's development build (serve runs the production build, whatever NODE_ENV says)",
  },
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
