import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeState } from '../../test/state.js';
import { Timeline } from './Timeline.js';

/** The timeline of the sample session, with no reloads. */
const renderSample = () => render(<Timeline entries={makeState().timeline} reloads={[]} />);

describe('Timeline', () => {
  it('shows one row per model step with skills, tools, lines, bytes and the cached prefix', () => {
    renderSample();
    const second = document.querySelector('[data-step="1.2"]')!;
    expect(second.textContent).toContain('+notes');
    expect(second.textContent).toContain('+add_note');
    expect(second.textContent).toContain('+2');
    expect(second.textContent).toContain('1.5 kB');
    expect(second.textContent).toContain('80%');
    expect(document.querySelector('[data-step="1.1"]')!.textContent).toContain('first');
    expect(screen.getByText('2 model steps')).toBeTruthy();
  });

  it('puts reloads between the steps they happened between', () => {
    const state = makeState();
    render(
      <Timeline
        entries={state.timeline}
        reloads={[
          { generation: 2, at: 1.5, files: ['notes.tsx'], changes: ['tool clear_notes added'], transcriptLength: 3 },
        ]}
      />,
    );
    const rows = [...document.querySelectorAll('tbody tr')].map((r) => r.textContent);
    expect(rows[1]).toContain('reload #1 (notes.tsx): tool clear_notes added');
    expect(rows[2]).toContain('1.2');
  });

  it('shows removed skills and tools', () => {
    const state = makeState();
    render(
      <Timeline
        entries={[{ ...state.timeline[1], loaded: ['weather'], unloaded: ['notes'], toolsRemoved: ['add_note'] }]}
        reloads={[]}
      />,
    );
    expect(document.querySelector('.removed')!.textContent).toContain('−notes');
    expect([...document.querySelectorAll('.removed .pill')].map((p) => p.textContent)).toEqual(['−notes', '−add_note']);
  });

  it('flags where an append-only request changed the previous one, as a warning with a count in the header', () => {
    const state = makeState();
    const [first, second] = state.timeline;
    render(
      <Timeline
        entries={[
          { ...first, appendOnly: true },
          { ...second, appendOnly: true, prefixChange: { path: 'items.3.content.0', appendOnly: true } },
        ]}
        reloads={[]}
      />,
    );
    const flag = document.querySelector('[data-step="1.2"] [data-prefix-change]')!;
    expect(flag.textContent).toBe('⚠ the request changed at items.3.content.0');
    expect(flag.className).toContain('warn');
    expect(document.querySelector('[data-prefix-changes]')!.textContent).toContain('1 append-only prefix change');
    expect(screen.getByText(/append-only requests/)).toBeTruthy();
  });

  it('says quietly where a classic request stopped matching the previous one (where the cache stops)', () => {
    renderSample();
    const flag = document.querySelector('[data-step="1.2"] [data-prefix-change]')!;
    expect(flag.textContent).toBe('changed at messages.0.content.1');
    expect(flag.className).toContain('muted');
    expect(document.querySelector('[data-prefix-changes]')).toBeNull();
  });

  it("shows each step's reasoning, or that the provider hid it", () => {
    renderSample();
    expect(document.querySelector('[data-step="1.1"] [data-reasoning]')!.textContent).toBe(
      'reasoning: The notes skill can add notes.',
    );
    expect(document.querySelector('[data-step="1.2"] [data-reasoning]')!.textContent).toBe(
      'reasoning: hidden by the provider',
    );
  });
});
