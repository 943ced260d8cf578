/**
 * The steps `chat` and `run` share: load the module, open the `--session` store, pick the model,
 * describe the session.
 */
import type { SessionOptions } from '@skilltree/core';
import type { CliArgs } from './flags.js';
import type { Io } from './io.js';
import { type AgentModule, loadAgentModule } from './load-module.js';
import { CLI_CHAT_ID, type PickedModel, pickModel } from './pick-model.js';
import { createStyle } from './print.js';
import { chooseStore } from './store.js';
import { DEFAULT_STORE, type SessionSetup } from './stored-session.js';

/** A loaded agent, its model and how to build its sessions. */
export interface Prepared {
  agent: AgentModule;
  model: PickedModel;
  setup: SessionSetup;
  /** Closes what preparing opened (the session store). */
  close(): Promise<void>;
}

/**
 * Runs `use` with what {@link prepare} prepared, and closes it (the session store) afterwards,
 * whatever `use` does.
 */
export async function withPrepared<T>(args: CliArgs, io: Io, use: (prepared: Prepared) => Promise<T>): Promise<T> {
  const prepared = await prepare(args, io);
  try {
    return await use(prepared);
  } finally {
    await prepared.close();
  }
}

/**
 * Session options: the module's `sessionOptions` export, then the flags (which win); `model` is a
 * fresh instance of the picked model (the module's function of the chat gets the `--session` name).
 */
export function sessionOptions(
  args: CliArgs,
  model: PickedModel,
  agent?: Pick<AgentModule, 'options'>,
): SessionOptions {
  const chat = args.session ?? CLI_CHAT_ID;
  const options: SessionOptions = {
    ...agent?.options.sessionOptions,
    model: model.forChat ? model.forChat(chat, undefined) : model.create(),
  };
  if (args.maxLoadedSkills !== undefined) options.maxLoadedSkills = args.maxLoadedSkills;
  if (args.maxTranscriptMessages !== undefined) options.maxTranscriptMessages = args.maxTranscriptMessages;
  if (args.maxSteps !== undefined) options.maxSteps = args.maxSteps;
  return options;
}

/**
 * Loads `args.module`, opens the `--session` store (any backend, resolved next to the module; it
 * fails here, before any model is called, when it cannot be opened), picks the model (saying so on
 * stderr when it was picked by default).
 */
export async function prepare(args: CliArgs, io: Io): Promise<Prepared> {
  const agent = await loadAgentModule(args.module!, io.cwd);
  const store =
    args.session === undefined
      ? undefined
      : await (await chooseStore(args.store ?? DEFAULT_STORE, agent.path, io.cwd)).open();
  try {
    const model = await pickModel(args.model, { env: io.env, cwd: io.cwd, agent });
    if (model.notice) io.stderr.write(`${createStyle(io.stderr, io.env).dim(model.notice)}\n`);
    return {
      agent,
      model,
      setup: { agent, options: sessionOptions(args, model, agent), session: args.session, store },
      close: async () => {
        await store?.close().catch(() => {});
      },
    };
  } catch (error) {
    await store?.close().catch(() => {});
    throw error;
  }
}
