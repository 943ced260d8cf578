import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession, type Model, scriptedModel } from '@skilltree/core';
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
      expect(saved.exchanges[0].request.messages).toEqual([{ role: 'user', content: 'Refund A-1' }]);
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
    expect(error.path).toBe('messages[0].content');
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
    expect(() => parseRecording({ format: 'skilltree-recording', version: 2, exchanges: [] }, 'x.json')).toThrow(
      /version 2/,
    );
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
      /looks like a secret \(anthropic-key\) at exchanges\[0\]\.request\.messages\[0\]\.content; nothing was written/,
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
      content: 'I am <email>, refund A-1',
    });
    const replayed = await converse(
      replayModel(recorder.recording, { redact }),
      <Shop />,
      'I am dana@example.com, refund A-1',
    );
    expect(replayed.text).toBe('Refunded A-1.');
  });
});
