/**
 * `skilltree dev <module>`: starts the playground (implemented in `./server.js`) and keeps it
 * running until Ctrl+C.
 */
import { resolve } from 'node:path';
import type { Model } from '@skilltree/core';
import { CliError, errorMessage } from '../../kit/errors.js';
import type { CliArgs } from '../../kit/flags.js';
import type { Io } from '../../kit/io.js';
import { untilSignal } from '../../kit/listen.js';
import { hasProviderKey, pickModel } from '../../kit/pick-model.js';
import type { DevServer, DevServerOptions } from './server.js';

/**
 * The model for the playground: `--model` / `SKILLTREE_MODEL` / a provider key when there is one;
 * undefined (the playground falls back to the module's demo, reloaded with the module) otherwise.
 */
async function devModel(args: CliArgs, io: Io): Promise<Model | undefined> {
  const spec = args.model ?? io.env.SKILLTREE_MODEL;
  if (spec?.trim() === 'demo') return undefined;
  if (!spec && !hasProviderKey(io.env)) return undefined;
  const core = await import('@skilltree/core');
  const picked = await pickModel(spec, { env: io.env, cwd: io.cwd, agent: { core } });
  if (picked.notice) io.stderr.write(`${picked.notice}\n`);
  return picked.create();
}

type StartDevServer = (options: DevServerOptions) => Promise<DevServer>;

/** Runs `dev`. Resolves to the exit code once the server is closed (Ctrl+C or SIGTERM). */
export async function devCommand(args: CliArgs, io: Io): Promise<number> {
  // A variable specifier: a build without the playground server still runs the other commands.
  const specifier = './server.js';
  let start: StartDevServer | undefined;
  try {
    start = ((await import(specifier)) as { startDevServer?: StartDevServer }).startDevServer;
  } catch (error) {
    throw new CliError(`The playground is not available in this build: ${errorMessage(error)}`);
  }
  if (typeof start !== 'function') throw new CliError('The playground is not available in this build.');
  const model = await devModel(args, io);
  let server: DevServer;
  try {
    server = await start({
      module: resolve(io.cwd, args.module!),
      port: args.port,
      host: args.host,
      model,
      maxLoadedSkills: args.maxLoadedSkills,
      maxTranscriptMessages: args.maxTranscriptMessages,
      price: args.price,
      cwd: io.cwd,
      log: (line) => io.stderr.write(`${line}\n`),
    });
  } catch (error) {
    throw new CliError(`Could not start the playground: ${errorMessage(error)}`);
  }
  io.stdout.write(`skilltree playground: ${server.url}  (Ctrl+C to stop)\n`);
  await untilSignal();
  await server.close();
  return 0;
}
