/**
 * `skilltree dev <module>`: starts the playground (implemented in `./dev/server.js`) and keeps it
 * running until Ctrl+C.
 */
import { resolve } from 'node:path';
import type { Model } from '@skilltree/core';
import type { CliArgs } from './args.js';
import type { PriceChoice } from './cost.js';
import { CliError, errorMessage } from './errors.js';
import type { Io } from './io.js';
import { pickModel } from './pick-model.js';

/** Options the playground server takes. */
export interface DevServerOptions {
  /** Absolute path of the agent module. */
  module: string;
  port?: number;
  host?: string;
  /** The model; undefined lets the playground use the module's `demo.model()`. */
  model?: Model;
  maxLoadedSkills?: number;
  maxTranscriptMessages?: number;
  /** `--price` for the Cost view. */
  price?: PriceChoice;
  /** Resolves a relative `module`. */
  cwd?: string;
  /** Where terminal messages go. */
  log?: (line: string) => void;
}

/**
 * The model for the playground: `--model` / `SKILLTREE_MODEL` / a provider key when there is one;
 * undefined (the playground falls back to the module's demo, reloaded with the module) otherwise.
 */
async function devModel(args: CliArgs, io: Io): Promise<Model | undefined> {
  const spec = args.model ?? io.env.SKILLTREE_MODEL;
  if (spec?.trim() === 'demo') return undefined;
  if (!spec && !io.env.ANTHROPIC_API_KEY && !io.env.OPENAI_API_KEY) return undefined;
  const core = await import('@skilltree/core');
  const picked = await pickModel(spec, { env: io.env, cwd: io.cwd, agent: { core } });
  if (picked.notice) io.stderr.write(`${picked.notice}\n`);
  return picked.create();
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
  const model = await devModel(args, io);
  let server: Awaited<ReturnType<StartDevServer>>;
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
