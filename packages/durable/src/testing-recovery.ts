/**
 * The conformance cases of "seen from outside, nothing happened": a recovered turn followed through
 * `GET /chat/:id/stream` on another worker, its span linked to the span of the attempt that died,
 * and a process closed mid-turn handing its turn over to another. Part of {@link durableConformance}
 * (`./testing.ts`), which runs them on each engine with its own setup.
 */
import { join } from 'node:path';
import { textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import type { CaseKit, CaseSetup } from './testing-kit.js';
import { hangs, logLines, type SpanLine } from './testing-workers.js';

/** One case's chat and workers, as {@link durableConformance} sets them up. */
export type RecoverySetup = CaseSetup;

/** What the recovery cases take from the suite. */
export type RecoveryHelpers = CaseKit<RecoverySetup & { owner?: string }>;

/** The chunks of a UI message stream (server-sent events, one JSON chunk per `data:` line), read to its end. */
async function* uiChunks(response: Response): AsyncGenerator<{ type: string; [key: string]: unknown }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    for (const event of events) {
      for (const line of event.split('\n')) {
        if (!line.startsWith('data: ')) continue;
        const data = line.slice('data: '.length);
        if (data !== '[DONE]') yield JSON.parse(data);
      }
    }
  }
}

const spans = (dir: string) => logLines(dir, 'spans.log').map((l) => JSON.parse(l) as SpanLine);

/** Adds the recovery cases to the suite's `describe`. */
export function recoveryCases(h: RecoveryHelpers, owner: (chat: string) => string): void {
  test('GET /chat/:id/stream of a recovered turn resumes on any worker: the tool result and the answer once each, one user message and one answer', () =>
    h.withSetup(async (t) => {
      const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool' });
      await hangs(victim, join(t.dir, 'hang'));
      await victim.kill();
      // A worker that only serves the page (it recovers nothing); its lease ttl keeps the dead turn "running" for it.
      const follower = t.start('follower', { role: 'serve', http: true, leaseTtl: 60_000 }, false);
      const url = (await follower.line('http ')).slice('http '.length);
      const response = await fetch(`${url}/chat/${encodeURIComponent(t.chat)}/stream`, {
        headers: { 'x-user': owner(t.chat) },
      });
      expect(response.status).toBe(200);
      const chunks: { type: string; [key: string]: unknown }[] = [];
      const stream = uiChunks(response);
      const next = async () => {
        const read = await stream.next();
        if (!read.done) chunks.push(read.value);
        return read.done ? null : read.value;
      };
      // What the dead process committed comes first: the call, with no result yet.
      for (let c = await next(); c && c.type !== 'tool-input-available'; c = await next());
      // Only now is the turn recovered, by a third process: the open stream follows its commits.
      const recoverer = t.start('recoverer', { role: 'serve' });
      while (await next());
      // The recoverer finds the turn abandoned; an engine with a shared queue (DBOS) may hand the run to
      // any live process of the deployment, the follower included: either one says it recovered it.
      expect((await Promise.race([h.recovered(recoverer), h.recovered(follower)])).error).toBeUndefined();
      const of = (type: string) => chunks.filter((c) => c.type === type);
      expect(chunks[0]).toEqual({ type: 'start', messageId: 'm1' });
      expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
      expect(of('tool-input-available').map((c) => c.toolCallId)).toEqual(['pay-1']);
      expect(of('tool-output-available').map((c) => [c.toolCallId, c.output])).toEqual([['pay-1', 'charged 500']]);
      // A recovered model call's text arrives whole, once it is committed: one text part.
      expect(of('text-start')).toHaveLength(1);
      expect(of('text-delta').map((c) => c.delta)).toEqual(['Charged 500 cents.']);
      expect(of('tool-output-error')).toEqual([]);
      expect(h.models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(h.effects(t.dir)).toBe(1);
      const { messages } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(textOf(messages[3])).toBe('Charged 500 cents.');
    }));

  test('the recovered turn span links to the span of the attempt that died, in the same trace under the same parent', () =>
    h.withSetup(async (t) => {
      const victim = t.start('victim', { role: 'send', leaseTtl: 1_500, hang: 'tool', telemetry: true });
      await hangs(victim, join(t.dir, 'hang'));
      const pid = victim.child.pid;
      await victim.kill();
      // The dead process's spans never ended: their starts are all there is of them.
      const started = spans(t.dir).filter((s) => s.pid === pid && s.event === 'start');
      const request = started.find((s) => s.name === 'request');
      const first = started.find((s) => s.name.startsWith('invoke_agent'));
      expect(first?.traceId).toBe(request?.traceId);
      const survivor = t.start('survivor', { role: 'serve', telemetry: true });
      expect((await h.recovered(survivor)).error).toBeUndefined();
      const ended = spans(t.dir).filter((s) => s.pid === survivor.child.pid && s.event === 'end');
      const turn = ended.find((s) => s.name.startsWith('invoke_agent'));
      expect(turn).toBeDefined();
      expect(turn?.spanId).not.toBe(first?.spanId);
      expect(turn?.traceId).toBe(first?.traceId);
      expect(turn?.parentSpanId).toBe(request?.spanId);
      expect(turn?.links).toEqual([
        { traceId: first?.traceId, spanId: first?.spanId, attributes: { 'skilltree.link.type': 'recovered_from' } },
      ]);
      expect(turn?.attributes?.['skilltree.turn.recovered']).toBe(true);
      // The spans of the recovered part (the tool that ran again, the second model call) are in that trace too.
      expect(ended.filter((s) => s.traceId !== first?.traceId)).toEqual([]);
    }));

  test('sessions.close() hands a running turn over: no stop, nothing more written by the closed process, another finishes it', () =>
    h.withSetup(async (t) => {
      const closing = t.start('closing', { role: 'send', hang: 'tool', closeTimeout: 0 });
      await hangs(closing, join(t.dir, 'hang'));
      // A deploy: the process closes its sessions (stdin ends) while the tool runs.
      await closing.end();
      expect(await closing.exit).toBe(0);
      const said = JSON.parse((await closing.line('turn ')).slice('turn '.length)) as { name?: string };
      expect(said.name).toBe('TurnHandedOverError');
      // The closed process wrote nothing after the call: no interrupted result, no stopped turn.
      expect((await t.read()).messages.map((m) => m.role)).toEqual(['user', 'assistant']);
      const taker = t.start('taker', { role: 'serve' });
      expect((await h.recovered(taker)).error).toBeUndefined();
      expect(h.models(t.dir)).toEqual(['step 1', 'step 2']);
      expect(h.attempts(t.dir)).toHaveLength(2);
      expect(new Set(h.attempts(t.dir)).size).toBe(1);
      expect(h.effects(t.dir)).toBe(1);
      const { messages, tokens } = await t.read();
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(textOf(messages[2])).toBe('charged 500');
      expect(tokens).toBe(320);
    }));
}
