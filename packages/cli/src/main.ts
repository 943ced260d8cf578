/**
 * The `skilltree` command's entry point: parses the command line with the kit's flag table and
 * hands it to the command. `bin/skilltree.js` calls {@link main} with `process.argv`.
 */
import { createRequire } from 'node:module';
import { chat } from './commands/chat/index.js';
import { dev } from './commands/dev/index.js';
import { evalCommand } from './commands/eval/index.js';
import { run } from './commands/run/index.js';
import { serve } from './commands/serve/index.js';
import type { CommandSpec } from './kit/command.js';
import { CliError, errorMessage, RUNTIME_ERROR } from './kit/errors.js';
import { parseCliArgs } from './kit/flags.js';
import { helpText } from './kit/help.js';
import { type Io, processIo } from './kit/io.js';

/** The commands, in the order help lists them. */
const COMMANDS: readonly CommandSpec[] = [chat, run, dev, serve, evalCommand];

/** The version of `@skilltree/cli`. */
export function version(): string {
  return (createRequire(import.meta.url)('../package.json') as { version: string }).version;
}

/**
 * Runs the `skilltree` command with `argv` (the arguments after the script name) and resolves to
 * the exit code: 0 on success, 1 on a runtime error, 2 on a usage error. Errors are printed on
 * `io.stderr` as one clear line; nothing is thrown.
 *
 * @example
 * const code = await main(['run', 'agent.tsx', '-m', 'hello']);
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    const args = parseCliArgs(argv);
    if (args.version) {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    if (args.command === 'help') {
      io.stdout.write(helpText(COMMANDS, args.module));
      return 0;
    }
    if (args.help) {
      io.stdout.write(helpText(COMMANDS, args.command));
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === args.command);
    if (!command) throw new CliError(`Unknown command "${args.command}".`);
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(`skilltree: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`skilltree: ${errorMessage(error)}\n`);
    if (io.env.SKILLTREE_DEBUG && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return RUNTIME_ERROR;
  }
}
