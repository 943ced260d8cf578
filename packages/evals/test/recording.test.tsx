import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSession, type Model, scriptedModel, textOf } from '@skilltree/core';
import { type ModelStreamPart, reasoningOf } from '@skilltree/core/provider';
import { parseRecording, RecordingEndError, RecordingMismatchError, recordModel, replayModel } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const dir = () => mkdtempSync(join(tmpdir(), 'skilltree-rec-'));

const steps = () => [
  { text: 'Let me look.', toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'refunds' } }] },
  { toolCalls: [{ id: 't2', name: 'refund', input: { orderId: 'A-1' } }] },
  { text: 'Refunded A-1.' },
];

/** A conversation: one turn, recorded or replayed through `model`. */
async function converse(model: Model, agent = <Shop />, message = 'Refund A-1') {
  const session = createSession(agent, { model });
  try {
    const turn = await session.send(message);
    return { text: turn.text, transcript: JSON.parse(JSON.stringify(session.transcript)) };
  } finally {
    session.dispose();
  }
}

/** A scripted model without `stream`: recorded through `generate`. */
const generateOnly = (): Model => {
  const inner = scriptedModel(steps());
  return { name: 'scripted', generate: (req, opts) => inner.generate(req, opts) };
};

/** A model with `stream` as well, made from a scripted one. */
const streaming = (): Model => {
  const inner = scriptedModel(steps());
  return {
    name: 'anthropic:claude-sonnet-4-5',
    generate: (req, opts) => inner.generate(req, opts),
    async *stream(req, opts) {
      const r = await inner.generate(req, opts);
      if (r.text) yield { type: 'text-delta', text: r.text };
      for (const c of r.toolCalls) yield { type: 'tool-call', id: c.id || 'x', name: c.name, input: c.input };
      yield { type: 'finish', usage: { inputTokens: 10, outputTokens: 2 }, model: 'claude-sonnet-4-5-20250929' };
    },
  };
};

describe('recordModel and replayModel', () => {
  for (const [label, make] of [
    ['generate', generateOnly],
    ['stream', streaming],
  ] as const) {
    it(`a conversation recorded through ${label} replays offline, the same, to the byte`, async () => {
      const file = join(dir(), 'refund.json');
      const recorder = recordModel(make(), { file });
      const live = await converse(recorder);
      const saved = parseRecording(readFileSync(file, 'utf8'));
      expect(saved.exchanges).toHaveLength(3);
      expect(saved.version).toBe(2);
      expect(saved.exchanges[0].request.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Refund A-1' }] },
      ]);
      expect(Object.keys(saved.exchanges[0].request).sort()).toEqual([
        'context',
        'contextPlacement',
        'messages',
        'system',
        'tools',
      ]);
      const replay = replayModel(file);
      const again = await converse(replay);
      expect(again).toEqual(live);
      expect(replay.remaining).toBe(0);
      expect(replay.name).toBe(make().name);
    });
  }

  it('a recording made with stream replays through generate, and the other way round', async () => {
    const streamed = recordModel(streaming());
    const live = await converse(streamed);
    const { stream: _drop, ...generateOnlyReplay } = replayModel(streamed.recording);
    expect((await converse(generateOnlyReplay as Model)).text).toBe(live.text);
    const generated = recordModel(generateOnly());
    await converse(generated);
    expect((await converse(replayModel(generated.recording))).text).toBe('Refunded A-1.');
  });

  it('when the agent changed, the replay says which request differs, where, and both sides', async () => {
    const recorder = recordModel(generateOnly());
    await converse(recorder);
    const replay = replayModel(recorder.recording, { source: 'refund.json' });
    const changed = <Shop refundsDescription="Give money back for an order" />;
    const error = await converse(replay, changed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecordingMismatchError);
    const mismatch = error as RecordingMismatchError;
    expect(mismatch.request).toBe(1);
    expect(mismatch.path).toBe('system');
    expect(mismatch.message).toMatch(/^request 1 differs from refund\.json at system:\n {2}recorded: …/);
    expect(mismatch.message).toContain('- refunds — Refund a delivered order');
    expect(mismatch.message).toContain('- refunds — Give money back for an order');
  });

  it('a different user message is found at its path', async () => {
    const recorder = recordModel(generateOnly());
    await converse(recorder);
    const error = (await converse(replayModel(recorder.recording), <Shop />, 'Refund A-2').catch(
      (e) => e,
    )) as RecordingMismatchError;
    expect(error.path).toBe('messages[0].content[0].text');
    expect(error.message).toContain('recorded: "Refund A-1"');
    expect(error.message).toContain('now:      "Refund A-2"');
  });

  it('paths can be ignored', async () => {
    const recorder = recordModel(generateOnly());
    await converse(recorder);
    const replay = replayModel(recorder.recording, { ignore: ['system'] });
    expect((await converse(replay, <Shop refundsDescription="Money back" />)).text).toBe('Refunded A-1.');
  });

  it('a request past the end of the recording is an error that says so', async () => {
    const recorder = recordModel(generateOnly());
    await converse(recorder);
    const replay = replayModel({ ...recorder.recording, exchanges: recorder.recording.exchanges.slice(0, 2) });
    const error = await converse(replay).catch((e) => e);
    expect(error).toBeInstanceOf(RecordingEndError);
    expect(error.message).toMatch(/has 2 requests; request 3 was made/);
  });

  it('a model error is recorded and replayed', async () => {
    const failing: Model = {
      name: 'flaky',
      async generate() {
        throw new Error('overloaded (529)');
      },
    };
    const recorder = recordModel(failing);
    await expect(converse(recorder)).rejects.toThrow('overloaded (529)');
    expect(recorder.recording.exchanges[0].error).toEqual({ name: 'Error', message: 'overloaded (529)' });
    await expect(converse(replayModel(recorder.recording))).rejects.toThrow('overloaded (529)');
  });

  it('a missing or foreign file is refused with what to do', () => {
    expect(() => replayModel(join(dir(), 'none.json'))).toThrow(/No recording at .*none\.json: record it first/);
    expect(() => parseRecording('{"exchanges": []}', 'x.json')).toThrow('x.json is not a skilltree recording');
    expect(() => parseRecording({ format: 'skilltree-recording', version: 3, exchanges: [] }, 'x.json')).toThrow(
      /x\.json has version 3; this @skilltree\/evals reads versions 1 and 2/,
    );
  });
});

/** Opaque bytes, base64: a signature or an encrypted reasoning item, as providers send them. */
const opaque = (seed: number, length: number) =>
  Buffer.from(Array.from({ length }, (_, i) => (i * 37 + seed * 101) % 256)).toString('base64');

/** A model that thinks on every call: a signed block, a redacted one, then an encrypted item. */
const thinkingSteps = () => [
  {
    reasoning: { text: 'A refund "now"? \\ 🦊\n  check the order first ', providerData: { signature: opaque(1, 600) } },
    text: 'Let me look.',
    toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'refunds' } }],
  },
  {
    reasoning: { providerData: { redactedData: opaque(2, 300) } },
    toolCalls: [{ id: 't2', name: 'refund', input: { orderId: 'A-1' } }],
  },
  {
    reasoning: { provider: 'openai', providerData: { encryptedContent: opaque(3, 2_000), itemId: 'rs_0a1b2c' } },
    text: 'Refunded A-1.',
  },
];

/** The thinking model, with `stream` (reasoning as it streams, then each finished block) and `appendOnly` as asked. */
const thinking = (options: { stream?: boolean; appendOnly?: boolean } = {}): Model => {
  const inner = scriptedModel(thinkingSteps(), { appendOnly: options.appendOnly });
  const model: Model = {
    name: 'anthropic:claude-opus-5-5',
    ...(options.appendOnly ? { appendOnly: true } : {}),
    generate: (req, opts) => inner.generate(req, opts),
  };
  if (options.stream) {
    model.stream = async function* (req, opts): AsyncIterable<ModelStreamPart> {
      const r = await inner.generate(req, opts);
      for (const part of r.content ?? []) {
        if (part.type === 'text') yield { type: 'text-delta', text: part.text };
        else {
          if (part.text) yield { type: 'reasoning-delta', text: part.text };
          yield { type: 'reasoning', reasoning: part };
        }
      }
      for (const c of r.toolCalls) yield { type: 'tool-call', id: c.id, name: c.name, input: c.input };
      yield { type: 'finish', usage: r.usage };
    };
  }
  return model;
};

describe('recordings of models that think', () => {
  for (const stream of [false, true]) {
    it(`reasoning is recorded as the model returned it, byte for byte, and replayed into the same transcript (${stream ? 'stream' : 'generate'})`, async () => {
      const file = join(dir(), 'thinking.json');
      const live = await converse(recordModel(thinking({ stream }), { file }));
      const replies = live.transcript.filter((m: { role: string }) => m.role === 'assistant');
      const reasoning = replies.map(reasoningOf);
      expect(reasoning.map((r: unknown[]) => r.length)).toEqual([1, 1, 1]);
      expect(reasoning[0][0]).toMatchObject({
        providerData: { signature: opaque(1, 600) },
        text: 'A refund "now"? \\ 🦊\n  check the order first ',
      });
      expect(reasoning[2][0]).toMatchObject({
        provider: 'openai',
        providerData: { encryptedContent: opaque(3, 2_000), itemId: 'rs_0a1b2c' },
      });
      // The file holds each block exactly, and so does every later request that carries it back.
      const saved = parseRecording(readFileSync(file, 'utf8'));
      const recorded = saved.exchanges.map((e) =>
        e.response ? e.response.content : e.stream?.flatMap((p) => (p.type === 'reasoning' ? [p.reasoning] : [])),
      );
      for (const [i, blocks] of reasoning.entries()) {
        expect((recorded[i] ?? []).filter((p) => p.type === 'reasoning')).toEqual(blocks);
      }
      expect(JSON.stringify(saved.exchanges[2].request.messages[1].content[0])).toBe(JSON.stringify(reasoning[0][0]));
      expect(JSON.stringify(saved.exchanges[2].request.messages[3].content[0])).toBe(JSON.stringify(reasoning[1][0]));
      const replay = replayModel(file);
      expect(await converse(replay)).toEqual(live);
      expect(replay.remaining).toBe(0);
    });
  }

  it('a model that binds its reasoning to the prefix is recorded with its append-only requests, and the replay makes the session send them again', async () => {
    const recorder = recordModel(thinking({ appendOnly: true }));
    expect(recorder.appendOnly).toBe(true);
    const live = await converse(recorder);
    const { recording } = recorder;
    expect(recording.appendOnly).toBe(true);
    for (const exchange of recording.exchanges) expect(exchange.request.appendOnly?.items.length).toBeGreaterThan(0);
    // Each request is the one before plus what was appended: the recording shows it.
    const [first, second] = recording.exchanges.map((e) => e.request.appendOnly!);
    expect(second.items.slice(0, first.items.length)).toEqual(first.items);
    const replay = replayModel(JSON.parse(JSON.stringify(recording)));
    expect(replay.appendOnly).toBe(true);
    expect(await converse(replay)).toEqual(live);
    // Without append-only requests (a model that does not bind its prefix), the replay says where they differ.
    const { appendOnly: _dropped, ...plain } = replayModel(recording);
    const error = (await converse(plain as Model).catch((e: unknown) => e)) as RecordingMismatchError;
    expect(error).toBeInstanceOf(RecordingMismatchError);
    expect(error.path).toMatch(/^appendOnly/);
  });
});

describe('recordings made before messages had parts', () => {
  // A genuine version 1 recording, written by @skilltree/evals before messages had parts: string
  // content, contextChanged lines in tool results' text, an error result without an error kind.
  const V1 = fileURLToPath(new URL('./fixtures/recordings/refund-v1.json', import.meta.url));
  const v1Steps = () => [
    { text: 'Let me look.', toolCalls: [{ id: 't1', name: 'read_skill', input: { name: 'refunds' } }] },
    { toolCalls: [{ id: 't2', name: 'refund_all', input: {} }] },
    { toolCalls: [{ id: 't3', name: 'refund', input: { orderId: 'A-1' } }] },
    { text: 'Refunded A-1.' },
    { toolCalls: [{ id: 't4', name: 'read_skill', input: { name: 'shopping' } }] },
    { toolCalls: [{ id: 't5', name: 'add_to_cart', input: { sku: 'lamp' } }] },
    { text: 'Added the lamp.' },
  ];
  const twoTurns = async (model: Model) => {
    const session = createSession(<Shop />, { model });
    try {
      const texts = [(await session.send('Refund A-1')).text, (await session.send('Add a lamp')).text];
      return { texts, transcript: JSON.parse(JSON.stringify(session.transcript)) };
    } finally {
      session.dispose();
    }
  };

  it('a version 1 recording is read upgraded: each message reads as it did', () => {
    const raw = JSON.parse(readFileSync(V1, 'utf8'));
    expect(raw.version).toBe(1);
    const upgraded = parseRecording(raw, 'refund-v1.json');
    expect(upgraded.version).toBe(2);
    for (const [i, exchange] of upgraded.exchanges.entries()) {
      const before = raw.exchanges[i].request.messages as { content: string }[];
      expect(exchange.request.messages.map(textOf)).toEqual(before.map((m) => m.content));
      for (const m of exchange.request.messages) expect(Array.isArray(m.content)).toBe(true);
    }
    const last = upgraded.exchanges.at(-1)!.request.messages;
    expect(last[2].content).toEqual([
      { type: 'text', text: 'Loaded skill "refunds"; it is now active.' },
      {
        type: 'context-changed',
        changes: [
          { kind: 'loaded', skill: 'refunds' },
          { kind: 'line', skill: 'refunds', text: 'Refunds take 5 days.' },
        ],
      },
    ]);
    // What kind of error it was, the old recording cannot say.
    expect(last[4]).toMatchObject({ role: 'tool', name: 'refund_all', isError: true });
    expect(last[4]).not.toHaveProperty('errorKind');
  });

  it('a version 1 recording still replays: the same requests, the same answers, the same conversation', async () => {
    const replay = replayModel(V1);
    const replayed = await twoTurns(replay);
    expect(replay.remaining).toBe(0);
    expect(replayed.texts).toEqual(['Refunded A-1.', 'Added the lamp.']);
    // The conversation is the one a live run of today has, error kinds included.
    expect(replayed).toEqual(await twoTurns(scriptedModel(v1Steps())));
    expect(replayed.transcript[4]).toMatchObject({ isError: true, errorKind: 'unknown-tool' });
  });
});

describe('no secrets in recordings', () => {
  const leaky = (secret: string): Model => {
    const inner = scriptedModel([{ text: `Your key is ${secret}, keep it safe.` }]);
    return { name: 'm', generate: (req, opts) => inner.generate(req, opts) };
  };

  it('strings that look like keys are redacted, in requests and responses; the file holds none', async () => {
    const anthropicKey = `sk-ant-api03-${'a'.repeat(40)}`;
    const openaiKey = `sk-proj-${'b'.repeat(40)}`;
    const file = join(dir(), 'leak.json');
    const recorder = recordModel(leaky(anthropicKey), { file, env: {} });
    await converse(recorder, <Shop />, `Here is my key ${openaiKey} and a token Bearer ${'c'.repeat(30)}`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(anthropicKey);
    expect(text).not.toContain(openaiKey);
    expect(text).not.toContain('c'.repeat(30));
    expect(text).toContain('[redacted:anthropic-key]');
    expect(text).toContain('[redacted:openai-key]');
    expect(text).toContain('[redacted:bearer-token]');
  });

  it("the values of the environment's key variables are redacted wherever they appear", async () => {
    const secret = 'hunter2-corp-internal-value';
    const recorder = recordModel(leaky(secret), { env: { MY_SERVICE_TOKEN: secret, HOME: '/home/x' } });
    await converse(recorder, <Shop />, `token ${secret}`);
    const text = JSON.stringify(recorder.recording);
    expect(text).not.toContain(secret);
    expect(text).toContain('[redacted:$MY_SERVICE_TOKEN]');
  });

  it("with secrets: 'refuse' nothing is written, and the error names where the secret was", async () => {
    const file = join(dir(), 'refused.json');
    const recorder = recordModel(leaky('fine'), { file, secrets: 'refuse', env: {} });
    await expect(converse(recorder, <Shop />, `my key: sk-ant-${'z'.repeat(30)}`)).rejects.toThrow(
      /looks like a secret \(anthropic-key\) at exchanges\[0\]\.request\.messages\[0\]\.content\[0\]\.text; nothing was written/,
    );
    expect(() => readFileSync(file)).toThrow();
  });

  it('a redact hook rewrites content; the replay cleans live requests the same way, so they still match', async () => {
    const redact = (text: string) => text.replace(/[\w.]+@[\w.]+/g, '<email>');
    const recorder = recordModel(generateOnly(), { redact });
    await converse(recorder, <Shop />, 'I am dana@example.com, refund A-1');
    expect(JSON.stringify(recorder.recording)).not.toContain('dana@example.com');
    expect(recorder.recording.exchanges[0].request.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'I am <email>, refund A-1' }],
    });
    const replayed = await converse(
      replayModel(recorder.recording, { redact }),
      <Shop />,
      'I am dana@example.com, refund A-1',
    );
    expect(replayed.text).toBe('Refunded A-1.');
  });
});
