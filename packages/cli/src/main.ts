/**
 * The `skilltree` command's entry point. `bin/skilltree.js` calls {@link main} with `process.argv`.
 */
import { createRequire } from 'node:module';
import { parseCliArgs } from './args.js';
import { chatCommand } from './chat.js';
import { devCommand } from './dev-command.js';
import { CliError, errorMessage, RUNTIME_ERROR } from './errors.js';
import { helpText } from './help.js';
import { type Io, processIo } from './io.js';
import { runCommand } from './run.js';
import { SERVE_HELP } from './serve-args.js';

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
    // `serve` parses its own flags; its module (and the server) load only when it runs.
    if (argv[0] === 'serve') return await (await import('./serve.js')).serveCommand(argv.slice(1), io);
    const args = parseCliArgs(argv);
    if (args.version) {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    if (args.command === 'help') {
      const topic = args.module;
      if (topic === 'serve') {
        io.stdout.write(SERVE_HELP);
        return 0;
      }
      io.stdout.write(helpText(topic === 'chat' || topic === 'run' || topic === 'dev' ? topic : 'help'));
      return 0;
    }
    if (args.help) {
      io.stdout.write(helpText(args.command));
      return 0;
    }
    switch (args.command) {
      case 'chat':
        return await chatCommand(args, io);
      case 'run':
        return await runCommand(args, io);
      case 'dev':
        return await devCommand(args, io);
    }
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
