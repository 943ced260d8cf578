/**
 * `skilltree dev <module>`: starts the playground (implemented in `./dev/server.js`) and keeps it
 * running until Ctrl+C.
 */
import { resolve } from 'node:path';
import type { CliArgs } from './args.js';
import { CliError, errorMessage } from './errors.js';
import type { Io } from './io.js';

/** Options the playground server takes. */
export interface DevServerOptions {
  /** Absolute path of the agent module. */
  module: string;
  port?: number;
  host?: string;
  /** The `--model` spec as given (`anthropic:<id>`, `openai:<id>`, `scripted:<file>`, `demo`), if any. */
  model?: string;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
}

type StartDevServer = (options: DevServerOptions) => Promise<{ url: string; close(): Promise<void> }>;

/** Runs `dev`. Resolves to the exit code once the server is closed (Ctrl+C or SIGTERM). */
export async function devCommand(args: CliArgs, io: Io): Promise<number> {
  const specifier = './dev/server.js';
  let start: StartDevServer | undefined;
  try {
    start = ((await import(specifier)) as { startDevServer?: StartDevServer }).startDevServer;
  } catch (error) {
    throw new CliError(`The playground is not available in this build: ${errorMessage(error)}`);
  }
  if (typeof start !== 'function') throw new CliError('The playground is not available in this build.');
  const server = await start({
    module: resolve(io.cwd, args.module!),
    port: args.port,
    host: args.host,
    model: args.model,
    maxLoadedSkills: args.maxLoadedSkills,
    maxTranscriptMessages: args.maxTranscriptMessages,
  });
  io.stdout.write(`skilltree playground: ${server.url}  (Ctrl+C to stop)\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await server.close();
  return 0;
}
