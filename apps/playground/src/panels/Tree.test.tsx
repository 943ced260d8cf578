import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeView } from '../../test/state.js';
import { Tree } from './Tree.js';

describe('Tree', () => {
  it('names the component that rendered each instruction, text line and tool', () => {
    render(<Tree view={makeView()} />);
    const notes = document.querySelector('[data-tree-skill=notes]')!;
    const lines = [...notes.querySelectorAll('.tree-line')].map((li) => [
      li.querySelector('.kind')!.textContent,
      li.querySelector('.line')!.textContent,
      li.querySelector('.owner')!.textContent,
    ]);
    expect(lines).toEqual([
      ['Instructions', 'Keep notes short.', '<Notes>'],
      ['Text', 'Notes: buy milk', '<NoteList>'],
    ]);
    expect(notes.querySelector('[data-tree-tool=add_note] .owner')!.textContent).toBe('<Notes>');
    expect(document.querySelector('[data-tree-tool=now] .owner')!.textContent).toBe('<Clock>');
    // The read tool is skilltree's own, not a component's: the tree leaves it out.
    expect(document.querySelector('[data-tree-tool=read_skill]')).toBeNull();
    expect(screen.getByText('→ system')).toBeTruthy();
    expect(screen.getByText(/<Agent maxLoadedSkills=\{2\}>/)).toBeTruthy();
  });

  it('shows unloaded skills without children, and tree problems', () => {
    render(<Tree view={makeView({ problems: [{ message: 'Duplicate tool name "x"', skill: null }] })} />);
    expect(document.querySelector('[data-tree-skill=weather]')!.textContent).toContain('children not mounted');
    expect(screen.getByRole('alert').textContent).toContain('Duplicate tool name "x"');
  });

  it('says when the agent is not loaded', () => {
    render(<Tree view={null} />);
    expect(screen.getByText('The agent is not loaded.')).toBeTruthy();
  });
});
