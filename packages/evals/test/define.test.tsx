import { defineEval, type EvalSuite, recordingFile } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const ok: EvalSuite = { name: 's', agent: <Shop />, cases: [{ name: 'a', messages: 'hi' }] };

describe('defineEval refuses a malformed suite, naming what is wrong', () => {
  const bad: [string, unknown, RegExp][] = [
    ['no cases', { ...ok, cases: [] }, /needs cases/],
    ['a case without a name', { ...ok, cases: [{ messages: 'x' }] }, /cases\[0\] needs a name/],
    ['a case without messages', { ...ok, cases: [{ name: 'a', messages: [] }] }, /case "a" needs messages/],
    ['two cases with one name', { ...ok, cases: [ok.cases[0], ok.cases[0]] }, /two cases are named "a"/],
    ['bad trials', { ...ok, trials: 0 }, /trials must be a whole number from 1 to 1000/],
    [
      'reads that are not names',
      { ...ok, cases: [{ name: 'a', messages: 'x', expect: { reads: 'refunds' } }] },
      /expect\.reads must be a list/,
    ],
    [
      'an unknown order',
      { ...ok, cases: [{ name: 'a', messages: 'x', expect: { order: 'sorted' } }] },
      /expect\.order is 'in-order', 'any' or 'exact'/,
    ],
    ['a variant name with a space', { ...ok, variants: [{ name: 'a b' }] }, /variants\[0\] needs a name/],
    ['two variants with one name', { ...ok, variants: [{ name: 'x' }, { name: 'x' }] }, /two variants are named "x"/],
    ['no agent anywhere', { name: 's', cases: ok.cases }, /needs an agent/],
    [
      'a scorer named like a built-in one',
      { ...ok, scorers: [{ name: 'success', score: () => 1 }] },
      /Two scorers are named "success"/,
    ],
    ['a threshold that does not parse', { ...ok, thresholds: ['recall > high'] }, /Threshold "recall > high"/],
  ];
  for (const [what, suite, message] of bad) {
    it(what, () => {
      expect(() => defineEval(suite as EvalSuite)).toThrow(message);
    });
  }

  it('returns a good suite as it is', () => {
    expect(defineEval(ok)).toBe(ok);
  });
});

describe('a key that is not one fails at once, naming it and the closest valid one', () => {
  const expectation = (expect: Record<string, unknown>) => ({ ...ok, cases: [{ name: 'a', messages: 'x', expect }] });
  const bad: [string, unknown, string][] = [
    [
      'a misspelt expectation',
      expectation({ toolcalls: ['refund'] }),
      'Eval "s": case "a": expect.toolcalls is not an expectation; did you mean expect.toolCalls? (expectations: reads, mayRead, notRead, toolCalls, order, notCalled, waiting, subagents, text, stores, judge, check)',
    ],
    ['another', expectation({ reads: ['refunds'], notCaled: ['charges'] }), 'did you mean expect.notCalled?'],
    [
      'a key of an expected call',
      expectation({ toolCalls: [{ name: 'refund', inputs: {} }] }),
      'expect.toolCalls[0].inputs is not a key of a tool call; did you mean expect.toolCalls[0].input?',
    ],
    [
      'a misspelt case key',
      { ...ok, cases: [{ name: 'a', messages: 'x', expects: {} }] },
      'case "a": expects is not a case key; did you mean expect?',
    ],
    [
      'an unknown suite key',
      { ...ok, treshold: ['success >= 1'] },
      'Eval "s": treshold is not a suite key; did you mean thresholds?',
    ],
    [
      'an unknown variant key',
      { ...ok, variants: [{ name: 'v', option: {} }] },
      'variant "v": option is not a variant key; did you mean options?',
    ],
    [
      'a key of a message',
      { ...ok, cases: [{ name: 'a', messages: [{ text: 'x', file: [] }] }] },
      'messages[0].file is not a message key; did you mean messages[0].files?',
    ],
    [
      'a text rule of another shape',
      expectation({ text: { contains: 'x' } }),
      'expect.text is a string, a RegExp, { not: … }',
    ],
    [
      'an answer of another shape',
      { ...ok, cases: [{ name: 'a', messages: 'x', answers: { refund: 'yes' } }] },
      "answers.refund is 'approve', 'deny'",
    ],
  ];
  for (const [what, suite, message] of bad) {
    it(what, () => {
      expect(() => defineEval(suite as EvalSuite)).toThrow(message);
    });
  }

  it('runEval checks the same: a misspelt expectation never runs as a case that passes', async () => {
    const { runEval } = await import('@skilltree/evals');
    await expect(runEval(expectation({ notcalled: ['refund'] }) as EvalSuite)).rejects.toThrow(
      'expect.notcalled is not an expectation; did you mean expect.notCalled?',
    );
  });

  it('messages may carry files; a message with files may have no text', () => {
    const file = { data: 'aGVsbG8=', mediaType: 'text/plain', filename: 'note.txt' };
    expect(() => defineEval({ ...ok, cases: [{ name: 'a', messages: { text: '', files: [file] } }] })).not.toThrow();
    expect(() => defineEval({ ...ok, cases: [{ name: 'a', messages: '', files: [file] }] })).not.toThrow();
    expect(() => defineEval({ ...ok, cases: [{ name: 'a', messages: '' }] })).toThrow(/case "a" needs messages/);
  });
});

describe('recording files', () => {
  it('stay inside their folder whatever the suite, variant and case are called', () => {
    const file = recordingFile('/rec', '../../etc', '..', '../../passwd\u0000', 1);
    expect(file.startsWith('/rec/')).toBe(true);
    expect(
      file
        .split('/')
        .slice(2)
        .every((part) => part !== '..' && !part.startsWith('.') && !part.includes('\u0000')),
    ).toBe(true);
  });

  it('names that differ only by characters a file name drops stay apart', () => {
    expect(recordingFile('/r', 's', 'v', 'a/b', 1)).not.toBe(recordingFile('/r', 's', 'v', 'a b', 1));
    expect(recordingFile('/r', 'shop', 'default', 'refund', 2)).toBe('/r/shop/default/refund-2.json');
  });
});
