/**
 * The conformance cases for waiting calls as durable waits (part of `durableConformance`): a turn
 * that ends waiting for approval stays a workflow pending on a durable wait, its answer may come
 * from any process (its own may be dead), the answered call runs once, and the waiting workflow
 * ends once it is answered.
 */

import { join } from 'node:path';
import { textOf } from '@skilltree/core';
import type { DurableWaitState } from '@skilltree/core/provider';
import { expect, test } from 'vitest';
import type { CaseKit, CaseSetup } from './testing-kit.js';
import { hangs, type Worker } from './testing-workers.js';

/** Where an engine has a turn's workflow: running or waiting (`pending`), `ended`, or `missing` (never started). */
export type TurnWorkflowState = 'pending' | 'ended' | 'missing';

/** One case's chat, scratch folder and workers (made by `durableConformance`). */
export interface WaitCaseSetup extends CaseSetup {
  /** The durable wait the chat's committed state names, or null. */
  waitOf(): Promise<DurableWaitState | null>;
}

/** What the wait cases need of the suite. */
export interface WaitCaseKit extends CaseKit<WaitCaseSetup> {
  /** The engine's state of turn `turnId`'s workflow (see `DurableConformanceOptions.workflowState`). */
  workflowState(turnId: string): Promise<TurnWorkflowState>;
}

/** What a worker said of its own turn. */
function turnOf(line: string): { text?: string; waiting?: number; error?: string; name?: string } {
  return JSON.parse(line.slice('turn '.length));
}

/** A turn that ended waiting for approval, and the durable wait its chat names (checked pending on the engine). */
async function waitingTurn(t: WaitCaseSetup, kit: WaitCaseKit): Promise<{ asker: Worker; wait: DurableWaitState }> {
  const asker = t.start('asker', { role: 'send', approval: true, hang: 'none' });
  expect(turnOf(await asker.line('turn '))).toEqual({ text: '', waiting: 1 });
  const wait = await t.waitOf();
  expect(wait).toEqual({ turn: expect.any(String), wait: expect.any(String) });
  const state = wait as DurableWaitState;
  // The caller has its waiting turn; the turn's workflow does not end: it waits for the answer.
  expect(await kit.workflowState(state.turn)).toBe('pending');
  return { asker, wait: state };
}

/**
 * Resolves once a live process ended the waiting turn of `wait` (its own was killed): the one that
 * answered it, or a process that only recovers turns of others (started here). Either says
 * `recovered` with the waiting turn's id and no error.
 */
async function endedElsewhere(t: WaitCaseSetup, wait: DurableWaitState, answerers: Worker[]): Promise<void> {
  const survivor = t.start('survivor', { role: 'serve', approval: true });
  const ended = (w: Worker) =>
    w.match((l) => l.startsWith('recovered ') && l.includes(JSON.stringify(wait.turn)), `recovered ${wait.turn}`);
  const line = await Promise.any([survivor, ...answerers].map(ended));
  expect(JSON.parse(line.slice('recovered '.length))).toEqual({ turnId: wait.turn, chatId: t.chat });
}

/**
 * The state of turn `turnId`'s workflow once the engine has recorded its end, or the last state
 * seen. A process says `recovered` when the turn's body returned, and the engine records the end
 * just after (Restate acknowledges the handler's return on its own time): the state is looked at
 * again until it reads `ended`, at most 200 times, 50 ms apart.
 */
async function ended(kit: WaitCaseKit, turnId: string): Promise<TurnWorkflowState> {
  let state = await kit.workflowState(turnId);
  for (let look = 0; state !== 'ended' && look < 200; look++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    state = await kit.workflowState(turnId);
  }
  return state;
}

/** Registers the wait cases (inside the suite's `describe`). */
export function waitCases(kit: WaitCaseKit): void {
  const { withSetup, models, attempts, effects, workflowState } = kit;

  test('a turn waiting for approval is pending on a durable wait; its process killed, another approves: the tool runs once, one answer, the model asked once per step, and the waiting workflow ends', () =>
    withSetup(async (t) => {
      const { asker, wait } = await waitingTurn(t, kit);
      await asker.kill();
      expect(await workflowState(wait.turn)).toBe('pending');
      const approver = t.start('approver', { role: 'approve', approval: true });
      expect(turnOf(await approver.line('turn '))).toEqual({ text: 'Charged 500 cents.', waiting: 0 });
      expect(models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(attempts(t.dir)).toHaveLength(1);
      expect(effects(t.dir)).toBe(1);
      const { messages } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(textOf(messages[3])).toBe('Charged 500 cents.');
      expect(await t.waitOf()).toBeNull();
      // The waiting workflow was signalled; its own process is gone, so a live one ends it.
      await endedElsewhere(t, wait, [approver]);
      expect(await ended(kit, wait.turn)).toBe('ended');
      // Ending it asked and ran nothing again.
      expect(models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(attempts(t.dir)).toHaveLength(1);
      expect((await t.read()).messages).toHaveLength(4);
    }));

  test('a waiting turn answered after its process died ends even once the chat moved on (a later turn commits before any process recovers it)', () =>
    withSetup(async (t) => {
      const { asker, wait } = await waitingTurn(t, kit);
      await asker.kill();
      const approver = t.start('approver', { role: 'approve', approval: true });
      expect(turnOf(await approver.line('turn '))).toEqual({ text: 'Charged 500 cents.', waiting: 0 });
      // The chat moves on: another message and its whole turn, before any process looks for the waiting turn.
      const sender = t.start('sender', { role: 'send', text: 'Charge me again.', hang: 'none' });
      expect(turnOf(await sender.line('turn '))).toEqual({ text: 'Charged 500 cents.', waiting: 0 });
      expect(await t.waitOf()).toBeNull();
      expect(await workflowState(wait.turn)).toBe('pending');
      await endedElsewhere(t, wait, [approver, sender]);
      expect(await ended(kit, wait.turn)).toBe('ended');
      // Ending it asked, ran and wrote nothing again.
      expect(models(t.dir)).toEqual(['step 1', 'step 2', 'step 1', 'step 2']);
      expect(new Set(attempts(t.dir)).size).toBe(2);
      expect(effects(t.dir)).toBe(2);
      expect((await t.read()).messages).toHaveLength(8);
    }));

  test('an answer whose process dies after its last commit, before it signals the wait: another process recovers it, it signals, and both workflows end without asking or running anything again', () =>
    withSetup(async (t) => {
      const { asker, wait } = await waitingTurn(t, kit);
      await asker.kill();
      // The approver commits the answer, then dies at the step that signals the waiting turn.
      const approver = t.start('approver', { role: 'approve', approval: true, leaseTtl: 1_500, hang: 'signal' });
      await hangs(approver, join(t.dir, 'hang'));
      await approver.kill();
      const { messages } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(await workflowState(wait.turn)).toBe('pending');
      // A live process finds the answer abandoned (its commits are in, its workflow pending) and
      // recovers it: it replays, sends the signal, and the waiting workflow ends too.
      const survivor = t.start('survivor', { role: 'serve', approval: true });
      // An answer's id is its chat's turn prefix (`skilltree-turn-<tag>`), `-answers-` and a SHA-256.
      const answers = `${wait.turn.slice(0, 'skilltree-turn-'.length + 16)}-answers-`;
      const answer = JSON.parse(
        (
          await survivor.match(
            (l) => l.startsWith('recovered ') && l.includes(JSON.stringify(answers).slice(0, -1)),
            `recovered ${answers}…`,
          )
        ).slice('recovered '.length),
      ) as { turnId: string; chatId: string; error?: string };
      expect(answer).toEqual({ turnId: expect.stringMatching(/-answers-[0-9a-f]{64}/), chatId: t.chat });
      await survivor.match(
        (l) => l.startsWith('recovered ') && l.includes(JSON.stringify(wait.turn)),
        `recovered ${wait.turn}`,
      );
      expect(await ended(kit, answer.turnId)).toBe('ended');
      expect(await ended(kit, wait.turn)).toBe('ended');
      expect(models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(attempts(t.dir)).toHaveLength(1);
      expect(effects(t.dir)).toBe(1);
      expect((await t.read()).messages).toHaveLength(4);
    }));

  test('two processes approve the same waiting call at once: the tool runs once, the model is asked once, one answer', () =>
    withSetup(async (t) => {
      await waitingTurn(t, kit);
      const a = t.start('approver-a', { role: 'approve', approval: true });
      const b = t.start('approver-b', { role: 'approve', approval: true });
      const said = [turnOf(await a.line('turn ')), turnOf(await b.line('turn '))];
      expect(said).toContainEqual({ text: 'Charged 500 cents.', waiting: 0 });
      // The other heard the same answer (the engine ran one workflow for both), or that the call
      // was answered already: never a second run.
      for (const turn of said) {
        if (turn.error !== undefined) expect(turn.error).toMatch(/not waiting for an answer/);
        else expect(turn).toEqual({ text: 'Charged 500 cents.', waiting: 0 });
      }
      expect(models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(attempts(t.dir)).toHaveLength(1);
      expect(effects(t.dir)).toBe(1);
      const { messages } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    }));

  test('the engine itself runs one turn id once: two starts of the same id at once (past the lease) run the model once per step and the tool once', () =>
    withSetup(async (t) => {
      const racer = t.start('racer', { role: 'race' });
      const turns = () => racer.lines.filter((l) => l.startsWith('turn '));
      await racer.match(() => turns().length >= 2, 'both calls ended');
      const said = turns().map(turnOf);
      expect(said).toEqual([
        { text: 'Charged 500 cents.', waiting: 0 },
        { text: 'Charged 500 cents.', waiting: 0 },
      ]);
      expect(models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(attempts(t.dir)).toHaveLength(1);
      expect(effects(t.dir)).toBe(1);
      const { messages } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    }));

  test('a denial from another process reaches the model as the tool result; the tool never runs, and the waiting workflow ends', () =>
    withSetup(async (t) => {
      const { asker, wait } = await waitingTurn(t, kit);
      await asker.kill();
      const denier = t.start('denier', { role: 'deny', approval: true, text: 'over the limit' });
      const said = turnOf(await denier.line('turn '));
      expect(said.text).toMatch(/^Not charged: Denied: over the limit/);
      expect(models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(attempts(t.dir)).toHaveLength(0);
      expect(effects(t.dir)).toBe(0);
      const { messages } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(textOf(messages[2])).toMatch(/^Denied: over the limit/);
      await endedElsewhere(t, wait, [denier]);
      expect(await ended(kit, wait.turn)).toBe('ended');
    }));
}
