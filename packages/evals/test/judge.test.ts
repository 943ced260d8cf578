import { scriptedModel } from '@skilltree/core';
import { judgeRequest, judgeScorer, parseJudgement } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { calls, reads, trialOf } from './helpers/trial.js';

const evalCase = { name: 'c', messages: 'Where is A-1?', expect: { judge: 'gives the tracking number' } };
const trial = trialOf({
  messages: ['Where is A-1?'],
  replies: ['It ships with Royal Post, tracking RP123.'],
  text: 'It ships with Royal Post, tracking RP123.',
  reads: reads('shipping'),
  toolCalls: calls(['track', { orderId: 'A-1' }]),
});

describe('the LLM-judged scorer', () => {
  it("sends the expectation and the conversation, and scores with the judge's number", async () => {
    const judge = scriptedModel([{ text: 'Here you go: {"score": 0.8, "reason": "tracking given, carrier vague"}' }]);
    const out = await judgeScorer({ model: judge }).score(trial, evalCase);
    expect(out).toEqual({ value: 0.8, notes: ['judge: tracking given, carrier vague'] });
    const [request] = judge.requests;
    expect(request.tools).toEqual([]);
    expect(request.system).toMatch(/Reply with one JSON object/);
    const text = JSON.stringify(request.messages);
    expect(text).toContain('<expectation>\\ngives the tracking number\\n</expectation>');
    expect(text).toContain('<user>\\nWhere is A-1?\\n</user>');
    expect(text).toContain('<assistant>\\nIt ships with Royal Post, tracking RP123.\\n</assistant>');
    expect(text).toContain('Skills read: shipping. Tools called: track.');
  });

  it('does not apply to a case without expect.judge', async () => {
    const judge = scriptedModel([]);
    expect(await judgeScorer({ model: judge }).score(trial, { name: 'c', messages: 'x' })).toBeNull();
    expect(judge.requests).toHaveLength(0);
  });

  it('a reply without a score gives no value and a note with the reply', async () => {
    const out = await judgeScorer({ model: scriptedModel([{ text: 'Looks fine to me.' }]) }).score(trial, evalCase);
    expect(out).toEqual({ value: null, notes: ["judge: the judge's reply has no score: Looks fine to me."] });
  });

  it('a judge that fails gives no value and says why', async () => {
    const out = await judgeScorer({ model: scriptedModel([]), name: 'tone' }).score(trial, evalCase);
    expect(out).toMatchObject({
      value: null,
      notes: [expect.stringMatching(/^tone: the judge failed: scriptedModel ran out/)],
    });
  });

  it('a trial that failed scores 0 without asking the judge', async () => {
    const judge = scriptedModel([]);
    const out = await judgeScorer({ model: judge }).score(trialOf({ error: { kind: 'turn', message: 'x' } }), evalCase);
    expect(out).toEqual({ value: 0, notes: ['judge: no answer to judge (turn)'] });
  });

  it('parses the score from JSON anywhere in the reply, or from "score: x"; refuses scores outside 0..1', () => {
    expect(parseJudgement('{"score": 1, "reason": "ok"}')).toEqual({ score: 1, reason: 'ok' });
    expect(parseJudgement('Thinking… {"note": 1} then {"score": "0.25"}')).toEqual({ score: 0.25 });
    expect(parseJudgement('Score: 0.5')).toEqual({ score: 0.5 });
    expect(parseJudgement('{"score": 7}')).toBeNull();
    expect(parseJudgement('no idea')).toBeNull();
  });

  it('long messages are cut for the judge', () => {
    const long = trialOf({ messages: ['x'.repeat(50)], replies: ['y'.repeat(50)] });
    const text = JSON.stringify(judgeRequest(long, 'e', { maxMessageChars: 10 }).messages);
    expect(text).toContain(`${'x'.repeat(10)} […]`);
    expect(text).not.toContain('x'.repeat(11));
  });
});
