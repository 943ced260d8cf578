/**
 * The `--help` texts, generated: the commands' own words (their {@link CommandSpec}), their flags
 * from the flag table, and the models from the model choice rules.
 */
import type { CommandSpec } from './command.js';
import { COMMAND_NAMES, type CommandName } from './command-names.js';
import { FLAGS, type Flag, flagsOf } from './flag-table.js';
import { MODEL_CHOICE_HELP, MODEL_ENV_HELP } from './pick-model.js';

/** Where help texts start: the column of each flag's description. */
const COLUMN = 35;

function flagLines(flag: Flag, command?: CommandName): string {
  const left = `  ${flag.short ? `-${flag.short}, ` : ''}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`;
  let text = (command && flag.helpFor?.[command]) || flag.help;
  // The general help says which commands take a flag that not all take.
  if (!command && flag.commands.length < COMMAND_NAMES.length) text += ` [${flag.commands.join(', ')}]`;
  const [first, ...more] = text.split('\n');
  const pad = ' '.repeat(COLUMN);
  const head = left.length < COLUMN - 1 ? `${left.padEnd(COLUMN)}${first}` : `${left}\n${pad}${first}`;
  return [head, ...more.map((line) => `${pad}${line}`)].join('\n');
}

function environment(): string {
  const rows = [...MODEL_ENV_HELP, ['NO_COLOR, FORCE_COLOR', 'turn colors off / on'] as const];
  const width = Math.max(...rows.map(([name]) => name.length)) + 3;
  return `Environment:\n${rows.map(([name, text]) => `  ${name.padEnd(width)}${text}`).join('\n')}`;
}

function general(commands: readonly CommandSpec[]): string {
  const width = Math.max(...commands.map((c) => c.synopsis.length), 'skilltree help [command]'.length) + 3;
  const usage = [
    ...commands.map((c) => `  ${c.synopsis.padEnd(width)}${c.summary}`),
    `  ${'skilltree help [command]'.padEnd(width)}a command's options`,
  ].join('\n');
  return `skilltree — run agents written with skilltree (skills as React components) in the terminal.

Usage:
${usage}

The module's default export is the agent (an element or a component); it may export
"demo = { messages: string[], model: () => Model }", a scripted conversation played offline.
The module of eval exports eval suites (defineEval from @skilltree/evals; docs/evals.md).

Options (a flag that only some commands take names them in brackets):
${FLAGS.map((flag) => flagLines(flag)).join('\n')}

${MODEL_CHOICE_HELP}

${environment()}

Docs: docs/cli.md`;
}

function ofCommand(spec: CommandSpec): string {
  const options = flagsOf(spec.name)
    .map((flag) => flagLines(flag, spec.name))
    .join('\n');
  return [
    `Usage: ${spec.usage}`,
    spec.description,
    `Options:\n${options}`,
    ...(spec.after ? [spec.after] : []),
    environment(),
  ].join('\n\n');
}

/**
 * The help text of `command` (one of `commands`), or the general help when `command` is undefined
 * or not a command.
 */
export function helpText(commands: readonly CommandSpec[], command?: string): string {
  const spec = commands.find((c) => c.name === command);
  return `${spec ? ofCommand(spec) : general(commands)}\n`;
}
