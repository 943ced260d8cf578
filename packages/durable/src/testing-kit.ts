/**
 * What the conformance cases (`testing-recovery.ts`, `testing-waits.ts`) take from
 * {@link durableConformance} (`./testing.ts`): one case's chat and workers, and the suite's reads
 * of the files the workers write. One shape for every group of cases, so a group adds only what it
 * needs beyond it.
 */
import type { Message } from '@skilltree/core';
import type { Worker, WorkerConfig } from './testing-workers.js';

/** A worker's config as a case gives it: the suite fills in the engine, store, folder, chat and owner. */
export type CaseWorkerConfig = Omit<
  WorkerConfig,
  'engine' | 'storeUrl' | 'dir' | 'chat' | 'owner' | 'engineOptions' | 'leaseTtl'
> & {
  leaseTtl?: number;
};

/** One case's chat, scratch folder and workers, as the suite sets them up. */
export interface CaseSetup {
  dir: string;
  chat: string;
  /** Starts worker `name`; `recover` says whether it looks for turns of dead processes (the suite picks by role when not given). */
  start(name: string, config: CaseWorkerConfig, recover?: boolean): Worker;
  /** The chat's messages and token count, as the store holds them. */
  read(): Promise<{ messages: Message[]; tokens: number | undefined }>;
}

/** What a group of cases takes from the suite, for setups of type `Setup`. */
export interface CaseKit<Setup extends CaseSetup> {
  /** Runs `body` on a fresh setup and stops its workers after. */
  withSetup(body: (t: Setup) => Promise<void>): Promise<void>;
  /** The next turn `worker` recovered (its `recovered` line). */
  recovered(worker: Worker): Promise<{ turnId?: string; chatId: string; error?: string }>;
  /** The model requests the workers made, one line each. */
  models(dir: string): string[];
  /** The tool attempts the workers made, one line each. */
  attempts(dir: string): string[];
  /** How many side effects the tool did (once per idempotency key). */
  effects(dir: string): number;
}
