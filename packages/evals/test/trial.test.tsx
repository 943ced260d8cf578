import { type ModelRequest, scriptedModel } from '@skilltree/core';
import { runTrial } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const evalCase = { name: 'c', messages: ['Refund A-1', 'Thanks'] };

describe('a trial', () => {
  it('keeps each read and call with its result and turn, the replies, requests and final state', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'refund' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
      { toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
      { text: 'Refunded.' },
      { text: 'You are welcome.' },
    ]);
    const trial = await runTrial({ evalCase, variant: 'v', trial: 2, agent: <Shop />, model, options: {} });
    expect(trial.reads).toEqual([
      { name: 'refund', ok: false, turn: 1 },
      { name: 'refunds', ok: true, turn: 1 },
    ]);
    expect(trial.toolCalls.map(({ name, ok, turn }) => ({ name, ok, turn }))).toEqual([
      { name: 'refund', ok: false, turn: 1 },
      { name: 'refund', ok: true, turn: 1 },
    ]);
    expect(trial.toolCalls[0].result).toMatch(/^Unknown tool/);
    expect(trial.toolCalls[1].result).toMatch(/^refunded A-1/);
    expect(trial.replies).toEqual(['Refunded.', 'You are welcome.']);
    expect(trial.text).toBe('You are welcome.');
    expect(trial.steps).toBe(6);
    expect(trial.requests).toHaveLength(6);
    expect(trial.loadedSkills).toEqual(['refunds']);
    expect(trial.catalog).toEqual(['shopping', 'refunds', 'billing']);
    expect(trial.usage).toMatchObject({ estimated: true });
    expect(trial.usage.inputTokens).toBeGreaterThan(0);
    expect(trial.error).toBeUndefined();
    expect(trial.model).toBe('scripted');
  });

  it('a failing turn ends the trial: what happened stays, the final text is empty', async () => {
    const model = scriptedModel([{ text: 'Refunded.' }]);
    const trial = await runTrial({ evalCase, variant: 'v', trial: 1, agent: <Shop />, model, options: {} });
    expect(trial.messages).toEqual(['Refund A-1', 'Thanks']);
    expect(trial.replies).toEqual(['Refunded.']);
    expect(trial.text).toBe('');
    expect(trial.error).toMatchObject({ kind: 'turn', message: expect.stringMatching(/ran out of steps/) });
    expect(trial.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('session options reach the session (here: maxSteps)', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] }, { text: 'x' }]);
    const trial = await runTrial({
      evalCase: { name: 'c', messages: 'x' },
      variant: 'v',
      trial: 1,
      agent: <Shop />,
      model,
      options: { maxSteps: 1 },
    });
    expect(trial.error?.message).toMatch(/maxSteps reached/);
  });
});

describe('a case with files', () => {
  const note = (text: string, filename: string) => ({
    data: Buffer.from(text).toString('base64'),
    mediaType: 'text/plain',
    filename,
  });

  it('sends each message with its files: the case’s files with the first, a message’s own with it', async () => {
    const seen: string[][] = [];
    const look = (req: ModelRequest) => {
      const last = req.messages[req.messages.length - 1];
      seen.push(
        Array.isArray(last.content) ? last.content.flatMap((p) => (p.type === 'file' ? [String(p.filename)] : [])) : [],
      );
      return { text: 'seen' };
    };
    const trial = await runTrial({
      evalCase: {
        name: 'files',
        messages: ['What does the note say?', { text: '', files: [note('second', 'b.txt')] }],
        files: [note('first', 'a.txt')],
      },
      variant: 'v',
      trial: 1,
      agent: <Shop />,
      model: scriptedModel([look, look]),
      options: {},
    });
    expect(trial.error).toBeUndefined();
    expect(seen).toEqual([['a.txt'], ['b.txt']]);
    expect(trial.files).toEqual([['a.txt'], ['b.txt']]);
    expect(trial.messages).toEqual(['What does the note say?', '']);
  });

  it('a file the session refuses fails the turn, saying why', async () => {
    const trial = await runTrial({
      evalCase: { name: 'big', messages: 'Read this', files: [note('x'.repeat(64), 'big.txt')] },
      variant: 'v',
      trial: 1,
      agent: <Shop />,
      model: scriptedModel([{ text: 'ok' }]),
      options: { files: { maxFileBytes: 16 } },
    });
    expect(trial.error).toMatchObject({ kind: 'turn', message: expect.stringMatching(/big\.txt/) });
  });
});
