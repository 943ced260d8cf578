import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeView } from '../../test/state.js';
import { Skills } from './Skills.js';

describe('Skills', () => {
  it('lists the catalog with state, LRU position, mounts and owner', () => {
    render(<Skills view={makeView()} />);
    const notes = document.querySelector('[data-skill=notes]')!;
    expect(notes.getAttribute('data-state')).toBe('active');
    expect(notes.textContent).toContain('#1');
    expect(notes.querySelector('.num')!.textContent).toBe('1');
    expect(notes.textContent).toContain('<NotesAgent>');
    expect(document.querySelector('[data-skill=weather]')!.getAttribute('data-state')).toBe('unloaded');
    expect(screen.getByText('1 of 2 loaded')).toBeTruthy();
  });

  it('shows the LRU order, the active skill last', () => {
    const view = makeView();
    render(
      <Skills
        view={{
          ...view,
          skills: [
            { ...view.skills[0], state: 'loaded' },
            { ...view.skills[1], state: 'active', mounts: 2 },
          ],
          loadedSkills: ['notes', 'weather'],
        }}
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
    render(<Skills view={makeView({ loadedSkills: [] })} />);
    expect(screen.getByText(/none loaded — the model calls read_skill/)).toBeTruthy();
  });
});
