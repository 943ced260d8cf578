/**
 * `@skilltree/durable/testing`: the conformance suite every engine passes, like the store
 * conformance suite (`@skilltree/store/testing`): real worker processes on a real engine and a
 * PostgreSQL session store, SIGKILLed at the worst moments, and the turn finished by another
 * process. Each case waits on what the processes report and the files they write, never a clock.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSessions, type Message, type SubagentRun, textOf } from '@skilltree/core';
import { durableWaitOf, ownerKey, type SessionStore, spentSince } from '@skilltree/core/provider';
import { describe, expect, test } from 'vitest';
import { recoveryCases } from './testing-recovery.js';
import { type TurnWorkflowState, waitCases } from './testing-waits.js';
import { hangs, logLines, scratch, startWorker, type Worker, type WorkerConfig } from './testing-workers.js';

export type { TurnWorkflowState } from './testing-waits.js';

export {
  fileAppears,
  hangs,
  logLines,
  scratch,
  startWorker,
  type Worker,
  type WorkerConfig,
} from './testing-workers.js';

/** What {@link durableConformance} needs: your engine (through your worker) and a store. */
export interface DurableConformanceOptions {
  /** The engine's name, for the suite's title and the worker's `engine`. */
  engine: string;
  /** The worker script (see {@link WorkerConfig}); `test/fixtures/turn-worker.tsx` of this package is one. */
  worker: string;
  /** The folder the worker runs in (where its imports resolve). */
  cwd: string;
  /** The PostgreSQL URL of the session store the workers share. */
  storeUrl: string;
  /** A session store on `storeUrl` for the suite's own reads (closed by the suite). */
  openStore(): SessionStore;
  /**
   * Your engine's options for one worker process: `executorId` names the process (a restarted
   * process gets its old id back); `recover` says whether it looks for turns of dead processes.
   */
  engineOptions(process: { executorId: string; recover: boolean }): Record<string, unknown>;
  /** The Node binary the workers run on (an engine may need a newer Node than the tests). */
  nodeBinary?: string;
  /**
   * Where your engine has turn `turnId`'s workflow: `pending` (running, or waiting on a durable
   * wait), `ended` (finished or failed) or `missing`. Read it from the engine (DBOS's workflow
   * status, Restate's invocation status).
   */
  workflowState(turnId: string): Promise<TurnWorkflowState>;
  /**
   * The steps your engine recorded for turn `turnId`, by workflow: the turn's own under its id, and
   * each child workflow of a subagent run (`TurnEngine.child`) under the child's id, each list in
   * the order the steps were recorded (the names `step` was given; a child's start may be listed
   * under any name). Read it from the engine (DBOS's workflow steps, Restate's journal).
   */
  recordedSteps(turnId: string): Promise<Record<string, string[]>>;
}

/** Runs the durable-turn conformance suite on one engine. */
export function durableConformance(options: DurableConformanceOptions): void {
  let n = 0;
  /** Each case's chat by its scratch folder. */
  const chats = new Map<string, string>();
  const setup = () => {
    const dir = scratch();
    // Spend is kept per UTC day: a case that runs across midnight charges two (see `spentSince`).
    const since = Date.now();
    const chat = `chat-${process.pid}-${since}-${++n}`;
    chats.set(dir, chat);
    const base = { engine: options.engine, storeUrl: options.storeUrl, dir, chat, owner: `owner-${chat}` };
    const workers: Worker[] = [];
    const start = (
      name: string,
      config: Omit<WorkerConfig, keyof typeof base | 'engineOptions' | 'leaseTtl'> & { leaseTtl?: number },
      recover = config.role === 'serve',
    ) => {
      const worker = startWorker(
        options.worker,
        {
          ...base,
          leaseTtl: 6_000,
          ...config,
          engineOptions: options.engineOptions({ executorId: `${name}-${chat}`, recover }),
        },
        { cwd: options.cwd, ...(options.nodeBinary ? { nodeBinary: options.nodeBinary } : {}) },
      );
      workers.push(worker);
      return worker;
    };
    const read = async (): Promise<{ messages: Message[]; tokens: number | undefined; runs: SubagentRun[] }> => {
      const store = options.openStore();
      try {
        const reader = createSessions(null, { store });
        const messages = await reader.messages(chat, { owner: base.owner });
        const runs = await reader.subagentRuns(chat, { owner: base.owner });
        const spent = await spentSince(store, await ownerKey(base.owner), since);
        return { messages, tokens: spent.tokens, runs };
      } finally {
        await store.close();
      }
    };
    const waitOf = async () => {
      const store = options.openStore();
      try {
        return await durableWaitOf(store, chat, base.owner);
      } finally {
        await store.close();
      }
    };
    const done = () => Promise.all(workers.map((w) => w.end()));
    return { dir, chat, start, read, waitOf, done };
  };
  /**
   * Runs `body` on a fresh chat and scratch folder, then ends every worker it started, whatever
   * happened. The folder (the workers' logs) is removed when the case passed, kept when it failed.
   */
  const withSetup = async (body: (t: ReturnType<typeof setup>) => Promise<void>) => {
    const t = setup();
    let passed = false;
    try {
      await body(t);
      passed = true;
    } finally {
      await t.done();
      if (passed) rmSync(t.dir, { recursive: true, force: true });
    }
  };
  const recovered = async (worker: Worker) =>
    JSON.parse((await worker.line('recovered ')).slice('recovered '.length)) as {
      turnId: string;
      chatId: string;
      error?: string;
    };
  const models = (dir: string) => logLines(dir, 'model.log').map((l) => l.split(' ').slice(1).join(' '));
  // A case's own chat's attempts only: a worker may also recover a turn an earlier case left (it logs there too).
  const attempts = (dir: string) =>
    logLines(dir, 'attempts.log')
      .map((l) => l.split(' ')[1] as string)
      .filter((key) => key.startsWith(`${chats.get(dir)}/`));
  const effects = (dir: string) => readdirSync(join(dir, 'effects')).length;

  describe(`durable turns on ${options.engine}`, () => {
    test('a process killed mid-tool: another finishes the turn once the lease expires, the model asked once per recorded step, the side effect once, charged once', () =>
      withSetup(async (t) => {
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const survivor = t.start('survivor', { role: 'serve' });
        const info = await recovered(survivor);
        expect(info).toEqual({ turnId: expect.any(String), chatId: t.chat });
        expect(models(t.dir)).toEqual(['step 1', 'step 2']);
        expect(attempts(t.dir)).toHaveLength(2);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(effects(t.dir)).toBe(1);
        const { messages, tokens } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(textOf(messages[2])).toBe('charged 500');
        expect(textOf(messages[3])).toBe('Charged 500 cents.');
        // 110 tokens for step 1, 210 for step 2: each charged once.
        expect(tokens).toBe(320);
      }));

    test('a process killed mid-subagent (its tool runs, after its first model call): another finishes the turn, each model asked once per recorded step, the side effect once, one run', () =>
      withSetup(async (t) => {
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool', subagents: 1 });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const survivor = t.start('survivor', { role: 'serve', subagents: 1 });
        const info = await recovered(survivor);
        expect(info.error).toBeUndefined();
        // The run's first model call was recorded: only its second is asked, after the tool.
        expect(models(t.dir)).toEqual(['step 1', 'sub-1 step 1', 'sub-1 step 2', 'step 2']);
        expect(attempts(t.dir)).toHaveLength(2);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(attempts(t.dir)[0]).toMatch(/\/bill-1\/pay-1$/);
        expect(effects(t.dir)).toBe(1);
        const { messages, runs, tokens } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(textOf(messages[2])).toBe('Charged 500 cents.');
        expect(textOf(messages[3])).toBe('Billing charged 500 cents.');
        expect(runs.map((r) => [r.name, r.toolCallId, r.status])).toEqual([['billing', 'bill-1', 'done']]);
        // 110 + 210 for the parent's calls, 110 + 210 for the run's: each charged once.
        expect(tokens).toBe(640);
        // The run is a child workflow of the turn: its steps are recorded there, none in the turn's.
        const turnId = info.turnId;
        const recorded = await options.recordedSteps(turnId);
        expect(Object.keys(recorded).sort()).toEqual([turnId, `${turnId}/sub/bill-1`]);
        expect(recorded[turnId]?.filter((name) => name.startsWith('sub/'))).toEqual([]);
        const child = recorded[`${turnId}/sub/bill-1`] ?? [];
        expect(child.every((name) => name.startsWith('sub/bill-1/'))).toBe(true);
        // Its model calls and tool runs (the charges of its spend are there too), as recorded before the crash.
        expect(child.filter((name) => /^sub\/bill-1\/(model|tool)-/.test(name))).toEqual([
          'sub/bill-1/model-1',
          'sub/bill-1/tool-charge-pay-1',
          'sub/bill-1/model-2',
        ]);
      }));

    test('two subagent runs of one step side by side, the process killed in the second: the first replays without asking, the second goes on', () =>
      withSetup(async (t) => {
        // The runs' first model calls wait for each other (see the worker): they ran side by side.
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool', subagents: 2 });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const survivor = t.start('survivor', { role: 'serve', subagents: 2 });
        expect((await recovered(survivor)).error).toBeUndefined();
        // The second run hung in its second charge, after the first run had ended (its steps start in
        // rounds: the first run's last step started before the second's third charge step could):
        // the survivor asks only the second run's last call and the parent's answer.
        const lines = logLines(t.dir, 'model.log').map((l) => l.split(' '));
        const asked = (pid: string) => lines.filter(([p]) => p === pid).map((l) => l.slice(1).join(' '));
        const victimPid = lines[0]?.[0] ?? '';
        const survivorPid = lines.find(([p]) => p !== victimPid)?.[0] ?? '';
        expect(asked(victimPid).sort()).toEqual([
          'step 1',
          'sub-1 step 1',
          'sub-1 step 2',
          'sub-2 step 1',
          'sub-2 step 2',
        ]);
        expect(asked(survivorPid)).toEqual(['sub-2 step 3', 'step 2']);
        // The first run's tool ran once; the second's first charge once, its second twice with one key.
        const keys = attempts(t.dir);
        expect(keys.filter((k) => k.endsWith('/bill-1/pay-1'))).toHaveLength(1);
        expect(keys.filter((k) => k.endsWith('/bill-2/pay-1'))).toHaveLength(1);
        expect(keys.filter((k) => k.endsWith('/bill-2/pay-2'))).toHaveLength(2);
        expect(effects(t.dir)).toBe(3);
        const { messages, runs } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
        expect(runs.map((r) => [r.toolCallId, r.status])).toEqual([
          ['bill-1', 'done'],
          ['bill-2', 'done'],
        ]);
      }));

    test('a process killed mid-model-call: the recorded model call and tool run replay, only the call in flight is asked again', () =>
      withSetup(async (t) => {
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'model' });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const survivor = t.start('survivor', { role: 'serve' });
        expect((await recovered(survivor)).error).toBeUndefined();
        // Step 2 was asked by the victim (never answered) and again by the survivor; step 1 once.
        expect(models(t.dir)).toEqual(['step 1', 'step 2', 'step 2']);
        expect(attempts(t.dir)).toHaveLength(1);
        expect(effects(t.dir)).toBe(1);
        const { messages } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      }));

    test('a process killed while an approved call runs: another finishes it, the tool with the same key, one answer', () =>
      withSetup(async (t) => {
        const asker = t.start('asker', { role: 'send', approval: true, hang: 'none' });
        expect(JSON.parse((await asker.line('turn ')).slice(5))).toEqual({ text: '', waiting: 1 });
        await asker.kill();
        const approver = t.start('approver', { role: 'approve', approval: true, leaseTtl: 1_500, hang: 'tool' });
        await hangs(approver, join(t.dir, 'hang'));
        await approver.kill();
        const survivor = t.start('survivor', { role: 'serve', approval: true });
        expect((await recovered(survivor)).error).toBeUndefined();
        expect(models(t.dir)).toEqual(['step 1', 'step 2']);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(effects(t.dir)).toBe(1);
        const { messages } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(textOf(messages[3])).toBe('Charged 500 cents.');
      }));

    test('two processes racing to recover: the turn finishes once, the tool runs once after the crash', () =>
      withSetup(async (t) => {
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const a = t.start('racer-a', { role: 'serve' });
        const b = t.start('racer-b', { role: 'serve' });
        // One racer finishes the turn; the other finds it taken (the engine fences it) or replays it finished.
        const finished = (w: Worker) =>
          w.match((l) => l.startsWith('recovered ') && !l.includes('"error"'), 'recovered (without error)');
        await Promise.race([finished(a), finished(b)]);
        expect(models(t.dir)).toEqual(['step 1', 'step 2']);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(effects(t.dir)).toBe(1);
        const { messages, tokens } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(tokens).toBe(320);
      }));

    test('a turn moved to a process that is slow to start it is not taken again: the chat is held until its run takes the lease', () =>
      withSetup(async (t) => {
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        // The engine moves the turn to `slow`, whose run then waits (a busy machine) until `go`.
        const slow = t.start('slow', { role: 'serve', slowStart: true, leaseTtl: 60_000 });
        const turnId = (await slow.line('claimed ')).slice('claimed '.length);
        // Another process looks at the turn twice meanwhile (enough to take it): both looks find it held.
        const other = t.start('other', { role: 'serve' });
        await other.line(`look ${turnId} 2 `);
        const looks = other.lines.filter((l) => l.startsWith(`look ${turnId} `)).map((l) => l.split(' ')[3]);
        expect(looks).toEqual(looks.map(() => 'false'));
        writeFileSync(join(t.dir, 'go'), '');
        expect((await recovered(slow)).error).toBeUndefined();
        expect(models(t.dir)).toEqual(['step 1', 'step 2']);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(effects(t.dir)).toBe(1);
        expect(other.lines.filter((l) => l.startsWith('recovered '))).toEqual([]);
      }));

    test('a restarted process with the same executor id recovers its own turn at launch', () =>
      withSetup(async (t) => {
        const victim = t.start('same', { role: 'send', leaseTtl: 1_500, hang: 'tool' }, false);
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const restarted = t.start('same', { role: 'serve' }, false);
        expect((await recovered(restarted)).error).toBeUndefined();
        expect(models(t.dir)).toEqual(['step 1', 'step 2']);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(effects(t.dir)).toBe(1);
        const { messages } = await t.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      }));

    test("a restarted process with the same executor id recovers its own turn mid-subagent at launch, the run's child workflow with it", () =>
      withSetup(async (t) => {
        const victim = t.start('same', { role: 'send', leaseTtl: 1_500, hang: 'tool', subagents: 1 }, false);
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const restarted = t.start('same', { role: 'serve', subagents: 1 }, false);
        const info = await recovered(restarted);
        expect(info.error).toBeUndefined();
        expect(models(t.dir)).toEqual(['step 1', 'sub-1 step 1', 'sub-1 step 2', 'step 2']);
        expect(new Set(attempts(t.dir)).size).toBe(1);
        expect(effects(t.dir)).toBe(1);
        const recorded = await options.recordedSteps(info.turnId);
        expect(recorded[`${info.turnId}/sub/bill-1`]?.filter((name) => /\/(model|tool)-/.test(name))).toEqual([
          'sub/bill-1/model-1',
          'sub/bill-1/tool-charge-pay-1',
          'sub/bill-1/model-2',
        ]);
      }));

    test('a deploy that changes what the agent renders is refused with DurableReplayError, nothing diverges; a compatible one replays', async () => {
      await withSetup(async (t) => {
        const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
        await hangs(victim, join(t.dir, 'hang'));
        await victim.kill();
        const changed = t.start('changed', { role: 'serve', agent: 'v2-changed' });
        const refused = await recovered(changed);
        expect(refused.error).toMatch(/does not replay as recorded.*step model-1/);
        // Nothing was asked or run again, nothing written past what the victim committed.
        expect(models(t.dir)).toEqual(['step 1']);
        expect(attempts(t.dir)).toHaveLength(1);
        expect((await t.read()).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      });
      await withSetup(async (u) => {
        const victim = u.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
        await hangs(victim, join(u.dir, 'hang'));
        await victim.kill();
        const compatible = u.start('compatible', { role: 'serve', agent: 'v2-compatible' });
        expect((await recovered(compatible)).error).toBeUndefined();
        expect(models(u.dir)).toEqual(['step 1', 'step 2']);
        const { messages } = await u.read();
        expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
        expect(textOf(messages[2])).toBe('charged 500 (v2)');
      });
    });

    // Seen from outside, nothing happened: the resumed stream, the trace, and a close that hands over.
    recoveryCases({ withSetup, recovered, models, attempts, effects }, (chat) => `owner-${chat}`);
    // Last: a waiting turn's workflow may stay pending on the engine (see docs/durable.md), and later cases' processes see it.
    waitCases({ withSetup, recovered, models, attempts, effects, workflowState: options.workflowState });
  });
}
