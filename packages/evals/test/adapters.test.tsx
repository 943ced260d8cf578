/**
 * Recording and replay with the real adapters of @skilltree/models, against a local server that
 * speaks each provider's wire format: record once over HTTP, then replay with the server gone.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Model, reasoningOf } from '@skilltree/core/provider';
import { type EvalSuite, RecordingMismatchError, recordModel, replayModel, runEval } from '@skilltree/evals';
import { anthropic } from '@skilltree/models/anthropic';
import { openai } from '@skilltree/models/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';
import { startWireServer, type WireServer } from './helpers/wire-server.js';

let server: WireServer;
beforeEach(async () => {
  server = await startWireServer();
});
afterEach(async () => {
  await server.close();
});

const ANTHROPIC_KEY = `sk-ant-api03-${'k'.repeat(48)}`;
const OPENAI_KEY = `sk-proj-${'q'.repeat(48)}`;

const ADAPTERS: [string, () => Model][] = [
  [
    'anthropic',
    () =>
      anthropic({
        model: 'claude-sonnet-4-5',
        apiKey: ANTHROPIC_KEY,
        baseURL: server.url,
        headers: { 'x-team-secret': 'top' },
      }),
  ],
  [
    'openai',
    () =>
      openai({
        model: 'gpt-4.1',
        // The wire server speaks Chat Completions.
        api: 'chat',
        apiKey: OPENAI_KEY,
        baseURL: `${server.url}/v1`,
        headers: { 'x-team-secret': 'top' },
      }),
  ],
];

const script = () =>
  server.script(
    { text: 'Let me check.', toolCalls: [{ id: 'toolu_1', name: 'read_skill', input: { name: 'refunds' } }] },
    { toolCalls: [{ id: 'toolu_2', name: 'refund', input: { orderId: 'A-1' } }] },
    { text: 'Refunded A-1: it reaches you in 5 days.' },
  );

const suite = (model: () => Model, agent = <Shop />): EvalSuite => ({
  name: 'adapters',
  agent,
  model,
  cases: [
    {
      name: 'refund',
      messages: 'Refund order A-1 please',
      expect: { reads: ['refunds'], toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }], text: 'Refunded A-1' },
    },
  ],
});

describe.each(ADAPTERS)('%s: record over HTTP, replay offline', (provider, make) => {
  it('records what the adapter was asked and answered, without the key or headers', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'skilltree-rec-')), 'refund.json');
    script();
    const report = await runEval(suite(() => recordModel(make(), { file })));
    expect(report.variants[0].metrics.success?.mean).toBe(1);
    expect(server.requests).toHaveLength(3);
    // The key did reach the wire…
    expect(JSON.stringify(server.requests[0].headers)).toContain(provider === 'anthropic' ? ANTHROPIC_KEY : OPENAI_KEY);
    expect(server.requests[0].headers['x-team-secret']).toBe('top');
    // …and nothing of it, nor of the headers, reached the recording.
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(ANTHROPIC_KEY.slice(0, 20));
    expect(text).not.toContain(OPENAI_KEY.slice(0, 20));
    expect(text).not.toContain('x-team-secret');
    const recording = JSON.parse(text);
    expect(recording.model).toBe(`${provider}:${provider === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4.1'}`);
    expect(recording.exchanges).toHaveLength(3);
    expect(recording.exchanges[2].stream.at(-1)).toMatchObject({
      type: 'finish',
      usage: { outputTokens: 8, cacheReadTokens: 100 },
    });
  });

  it('replays the same conversation offline (the server is gone), with the same scores and usage', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-rec-'));
    script();
    const recorded = await runEval(suite(make), { recordings: { dir, mode: 'record' } });
    await server.close();
    const replayed = await runEval(
      suite(() => {
        throw new Error('replay must not ask for a model');
      }),
      { recordings: { dir, mode: 'replay' } },
    );
    const strip = (r: typeof recorded) =>
      r.cases[0].variants.default.trials.map(({ transcript, requests, text, usage, scores, model }) => ({
        transcript,
        requests,
        text,
        usage,
        model,
        scores: { ...scores, latency: 0, 'latency.model': 0 },
      }));
    expect(strip(replayed)).toEqual(strip(recorded));
    expect(replayed.variants[0].metrics['tokens.cached']?.mean).toBe(
      recorded.variants[0].metrics['tokens.cached']?.mean,
    );
    expect(readdirSync(join(dir, 'adapters', 'default'))).toEqual(['refund-1.json']);
  });

  it('a replay whose agent changed fails the trial, saying which request and where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-rec-'));
    script();
    await runEval(suite(make), { recordings: { dir, mode: 'record' } });
    const report = await runEval(suite(make, <Shop refundsDescription="Give money back" />), {
      recordings: { dir, mode: 'replay' },
    });
    expect(report.passed).toBe(false);
    expect(report.problems[0]).toMatch(/^refund \[default #1\]: request 1 differs from .*refund-1\.json at system:/);
    expect(report.cases[0].variants.default.trials[0].error?.kind).toBe('recording');
  });

  it('replayModel alone: the same requests give the same answers; a changed one throws RecordingMismatchError', async () => {
    script();
    const recorder = recordModel(make());
    const first = await runEval(suite(() => recorder));
    const again = await runEval(suite(() => replayModel(recorder.recording)));
    expect(again.cases[0].variants.default.trials[0].transcript).toEqual(
      first.cases[0].variants.default.trials[0].transcript,
    );
    const replay = replayModel(recorder.recording);
    const request = { system: 'other', context: '', messages: [], tools: [], contextPlacement: 'end' as const };
    await expect(replay.generate(request, {})).rejects.toBeInstanceOf(RecordingMismatchError);
  });
});

describe('a model that thinks and binds its prefix (Claude Opus 5.5): record over HTTP, replay offline', () => {
  const signature = (n: number) => Buffer.from(`signed block ${n} `.repeat(20)).toString('base64');
  const thinkingScript = () =>
    server.script(
      {
        thinking: { thinking: 'The user wants a refund: read the refunds skill.', signature: signature(1) },
        toolCalls: [{ id: 'toolu_1', name: 'read_skill', input: { name: 'refunds' } }],
      },
      {
        thinking: { thinking: 'Refund A-1 now.', signature: signature(2) },
        toolCalls: [{ id: 'toolu_2', name: 'refund', input: { orderId: 'A-1' } }],
      },
      { thinking: { thinking: '', signature: signature(3) }, text: 'Refunded A-1: it reaches you in 5 days.' },
    );
  const opus = () => anthropic({ model: 'claude-opus-5-5', apiKey: ANTHROPIC_KEY, baseURL: server.url });

  it('the recording keeps the thinking blocks and the append-only requests, and replays the same conversation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-rec-'));
    thinkingScript();
    const recorded = await runEval(suite(opus), { recordings: { dir, mode: 'record' } });
    expect(recorded.passed).toBe(true);
    // Through the recording wrapper the adapter still got append-only requests: each thinking block
    // went back byte for byte, first in its turn.
    const sent = server.requests[2].body.messages;
    const blocks = sent.filter((m: { role: string }) => m.role === 'assistant').map((m: any) => m.content[0]);
    expect(blocks).toEqual([
      { type: 'thinking', thinking: 'The user wants a refund: read the refunds skill.', signature: signature(1) },
      { type: 'thinking', thinking: 'Refund A-1 now.', signature: signature(2) },
    ]);
    const recording = JSON.parse(readFileSync(join(dir, 'adapters', 'default', 'refund-1.json'), 'utf8'));
    expect(recording).toMatchObject({ version: 2, appendOnly: true, model: 'anthropic:claude-opus-5-5' });
    expect(recording.exchanges.every((e: any) => e.request.appendOnly.items.length > 0)).toBe(true);
    expect(JSON.stringify(recording)).toContain(signature(3));

    await server.close();
    const replayed = await runEval(
      suite(() => {
        throw new Error('replay must not ask for a model');
      }),
      { recordings: { dir, mode: 'replay' } },
    );
    expect(replayed.passed).toBe(true);
    const transcript = (r: typeof recorded) => r.cases[0].variants.default.trials[0].transcript;
    expect(transcript(replayed)).toEqual(transcript(recorded));
    const reasoning = transcript(replayed).flatMap((m) => (m.role === 'assistant' ? reasoningOf(m) : []));
    expect(reasoning.map((r) => r.providerData?.signature)).toEqual([signature(1), signature(2), signature(3)]);
  });
});
