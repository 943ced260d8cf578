/**
 * What a recording may be trusted with. A replayed answer runs the agent's real tools, so a
 * recording edited after it was made is refused whole before anything replays (never noticed one
 * request later, after the tool ran). And what it keeps out: secrets in attached text files (their
 * bytes are base64 in the request) and in object keys, not only in strings.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, createSession, type Model, scriptedModel, Tool } from '@skilltree/core';
import { recordModel, replayModel } from '@skilltree/evals';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

const dir = () => mkdtempSync(join(tmpdir(), 'skilltree-trust-'));

/** Every refund the agent's real tool made. */
let refunds: unknown[] = [];
beforeEach(() => {
  refunds = [];
});

function Refunder() {
  return (
    <Agent>
      <Tool
        name="refund"
        description="Refund an order"
        input={z.object({ orderId: z.string(), cents: z.number() })}
        run={(input) => {
          refunds.push(input);
          return `refunded ${input.cents}`;
        }}
      />
    </Agent>
  );
}

const model = (): Model => {
  const inner = scriptedModel([
    { toolCalls: [{ id: 't1', name: 'refund', input: { orderId: 'A-1', cents: 100 } }] },
    { text: 'Refunded.' },
  ]);
  return { name: 'scripted', generate: (req, opts) => inner.generate(req, opts) };
};

async function converse(make: () => Model): Promise<string> {
  const session = createSession(<Refunder />, { model: make() });
  try {
    return (await session.send('Refund A-1')).text;
  } finally {
    session.dispose();
  }
}

/** A recording of one refund, written to a file. */
async function recorded(): Promise<string> {
  const file = join(dir(), 'refund.json');
  expect(await converse(() => recordModel(model(), { file, env: {} }))).toBe('Refunded.');
  refunds = [];
  return file;
}

/** The file with its first answer's refund raised, and (with `dropDigest`) its digest dropped. */
function tamper(file: string, dropDigest: boolean): void {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  json.exchanges[0].response.toolCalls[0].input.cents = 999_999;
  if (dropDigest) delete json.integrity;
  writeFileSync(file, JSON.stringify(json, null, 2));
}

describe('a tampered recording: verify first, run never', () => {
  it('an untouched recording carries its digest and replays, running the tool once', async () => {
    const file = await recorded();
    expect(JSON.parse(readFileSync(file, 'utf8')).integrity).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(await converse(() => replayModel(file))).toBe('Refunded.');
    expect(refunds).toEqual([{ orderId: 'A-1', cents: 100 }]);
  });

  it('a recording edited after it was recorded is refused before anything replays: no tool runs', async () => {
    const file = await recorded();
    tamper(file, false);
    await expect(converse(() => replayModel(file))).rejects.toThrow(
      /refund\.json was changed after it was recorded \(its integrity digest does not match its content\); nothing was replayed and no tool ran\. Record it again\./,
    );
    expect(refunds).toEqual([]);
  });

  it('an answer edited with the digest dropped is refused too, before anything replays: no tool runs', async () => {
    const file = await recorded();
    tamper(file, true);
    await expect(converse(() => replayModel(file))).rejects.toThrow(
      /exchanges\[0\] answers with a call of "refund" that the next recorded request, exchanges\[1\], does not carry/,
    );
    expect(refunds).toEqual([]);
  });

  it('a recording in memory is checked the same way when it is replayed', async () => {
    const recorder = recordModel(model(), { env: {} });
    await converse(() => recorder);
    refunds = [];
    const edited = JSON.parse(JSON.stringify(recorder.recording));
    edited.exchanges[0].response.toolCalls[0].input.cents = 999_999;
    expect(() => replayModel(edited)).toThrow(/changed after it was recorded/);
    expect(refunds).toEqual([]);
  });
});

describe('secrets the recording keeps out', () => {
  const echo = (): Model => {
    const inner = scriptedModel([{ text: 'Read it.' }]);
    return { name: 'm', generate: (req, opts) => inner.generate(req, opts) };
  };

  it('secrets in an attached text file are redacted in its base64 bytes: key shapes and .env lines', async () => {
    const openaiKey = `sk-proj-${'q'.repeat(40)}`;
    const env = `# settings\nSTRIPE_SECRET_KEY=rk_live_51abcdefgh\nDB_PASSWORD="correct horse"\nPORT=8080\nOPENAI=${openaiKey}\n`;
    const file = join(dir(), 'env.json');
    const recorder = recordModel(echo(), { file, env: {} });
    const session = createSession(<Refunder />, { model: recorder });
    await session.send('Here is my config', {
      files: [{ data: new TextEncoder().encode(env), mediaType: 'text/plain', filename: '.env' }],
    });
    session.dispose();
    const text = readFileSync(file, 'utf8');
    const part = JSON.parse(text).exchanges[0].request.messages[0].content.find(
      (p: { type: string }) => p.type === 'file',
    );
    const bytes = Buffer.from(part.data, 'base64').toString('utf8');
    for (const secret of ['rk_live_51abcdefgh', 'correct horse', openaiKey]) {
      expect(bytes).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(secret).toString('base64').slice(0, 12));
    }
    expect(bytes).toContain('STRIPE_SECRET_KEY=[redacted:$STRIPE_SECRET_KEY]');
    expect(bytes).toContain('DB_PASSWORD="[redacted:$DB_PASSWORD]"');
    expect(bytes).toContain('[redacted:openai-key]');
    // What is not a secret stays as it was.
    expect(bytes).toContain('# settings\n');
    expect(bytes).toContain('PORT=8080\n');
    // The replay cleans the live request the same way, so it still matches.
    const again = createSession(<Refunder />, { model: replayModel(file, { env: {} }) });
    const turn = await again.send('Here is my config', {
      files: [{ data: new TextEncoder().encode(env), mediaType: 'text/plain', filename: '.env' }],
    });
    expect(turn.text).toBe('Read it.');
    again.dispose();
  });

  it('a secret in an object key is redacted like one in a value', async () => {
    const key = `sk-ant-api03-${'k'.repeat(40)}`;
    const inner = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'lookup', input: { [key]: true } }] },
      { text: 'ok' },
    ]);
    const recorder = recordModel({ name: 'm', generate: (req, opts) => inner.generate(req, opts) }, { env: {} });
    await converse(() => recorder);
    const text = JSON.stringify(recorder.recording);
    expect(text).not.toContain(key);
    expect(text).toContain('[redacted:anthropic-key]');
  });
});
