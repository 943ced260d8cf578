import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeState } from '../../test/state.js';
import { Skills } from './Skills.js';

describe('Skills', () => {
  it('lists the catalog with state, LRU position, mounts and owner', () => {
    const state = makeState();
    render(<Skills skills={state.skills} loaded={state.loaded} config={state.config} />);
    const notes = document.querySelector('[data-skill=notes]')!;
    expect(notes.getAttribute('data-state')).toBe('active');
    expect(notes.textContent).toContain('#1');
    expect(notes.querySelector('.num')!.textContent).toBe('1');
    expect(notes.textContent).toContain('<NotesAgent>');
    expect(document.querySelector('[data-skill=weather]')!.getAttribute('data-state')).toBe('unloaded');
    expect(screen.getByText('1 of 2 loaded')).toBeTruthy();
  });

  it('shows the LRU order, the active skill last', () => {
    const state = makeState();
    render(
      <Skills
        skills={[
          { ...state.skills[0], state: 'loaded', lru: 0 },
          { ...state.skills[1], state: 'active', lru: 1, mounts: 2 },
        ]}
        loaded={['notes', 'weather']}
        config={state.config}
      />,
    );
    const badges = [...document.querySelectorAll('.lru .badge')].map((b) => [b.textContent, b.className]);
    expect(badges).toEqual([
      ['notes', 'badge badge-loaded'],
      ['weather', 'badge badge-active'],
    ]);
    expect(screen.getByText(/next read unloads notes/)).toBeTruthy();
  });

  it('says when nothing is loaded', () => {
    const state = makeState();
    render(<Skills skills={state.skills} loaded={[]} config={state.config} />);
    expect(screen.getByText(/none loaded — the model calls read_skill/)).toBeTruthy();
  });
});
