import { scoreSelection } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { reads, trialOf } from './helpers/trial.js';

const score = (needs: string[] | undefined, read: string[], extra: Record<string, unknown> = {}) =>
  scoreSelection(trialOf({ reads: reads(...read), ...extra }), {
    name: 'c',
    messages: 'hi',
    expect: { ...(needs ? { reads: needs } : {}), ...(extra.expect as object) },
  }) as { metrics: Record<string, number | null>; notes: string[] };

describe('selection precision and recall', () => {
  it('one needed skill read and one missed, one unneeded read: precision 0.5, recall 0.5', () => {
    const out = score(['refunds', 'billing'], ['refunds', 'shopping']);
    expect(out.metrics).toEqual({ precision: 0.5, recall: 0.5, f1: 0.5, unneeded: 1, missed: 1, repeated: 0 });
    expect(out.notes).toEqual(['missed: billing', 'unneeded: shopping']);
  });

  it('exactly the needed skills: precision 1, recall 1', () => {
    expect(score(['refunds'], ['refunds']).metrics).toMatchObject({ precision: 1, recall: 1, unneeded: 0, missed: 0 });
  });

  it('a repeated read of one skill costs precision: the second read was not needed', () => {
    const out = score(['refunds'], ['refunds', 'refunds', 'refunds']);
    expect(out.metrics).toMatchObject({ precision: 1 / 3, recall: 1, unneeded: 0, repeated: 2 });
    expect(out.notes).toEqual(['read again: refunds (3 times)']);
    // A skill the case may read costs nothing, however often.
    expect(
      score(['refunds'], ['refunds', 'billing', 'billing'], { expect: { mayRead: ['billing'] } }).metrics,
    ).toMatchObject({
      precision: 1,
      repeated: 0,
    });
  });

  it('nothing needed and nothing read: neither applies', () => {
    expect(score([], []).metrics).toMatchObject({ precision: null, recall: null, f1: null, unneeded: 0 });
  });

  it('nothing needed but a skill read: precision 0', () => {
    expect(score([], ['billing']).metrics).toMatchObject({ precision: 0, recall: null, unneeded: 1 });
  });

  it('a needed skill not read, nothing read: recall 0, precision does not apply', () => {
    expect(score(['refunds'], []).metrics).toMatchObject({ precision: null, recall: 0, missed: 1 });
  });

  it('a skill the case may read is neither needed nor unneeded', () => {
    const out = scoreSelection(trialOf({ reads: reads('refunds', 'billing') }), {
      name: 'c',
      messages: 'hi',
      expect: { reads: ['refunds'], mayRead: ['billing'] },
    });
    expect(out).toMatchObject({ metrics: { precision: 1, recall: 1, unneeded: 0 } });
  });

  it('preloaded skills were not the model’s choice: left out of both', () => {
    const out = scoreSelection(trialOf({ reads: reads('billing'), preloaded: ['refunds', 'shopping'] }), {
      name: 'c',
      messages: 'hi',
      expect: { reads: ['refunds', 'billing'] },
    });
    expect(out).toMatchObject({ metrics: { precision: 1, recall: 1, missed: 0 } });
  });

  it('a read of a name the catalog lacks is unneeded, and the note says so', () => {
    const out = score(['refunds'], ['refund']);
    expect(out.metrics).toMatchObject({ precision: 0, recall: 0 });
    expect(out.notes).toContain('unneeded: refund (not in the catalog: "refund")');
  });

  it('does not apply to a case that names no reads', () => {
    expect(score(undefined, ['refunds'])).toBeNull();
  });
});
