import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeState } from '../../test/state.js';
import { Skills } from './Skills.js';
import { Tree } from './Tree.js';

/** What a folder skill and an MCP tool might report; the panels know neither shape. */
const folderMeta = { source: 'skills/pdf/SKILL.md', files: ['SKILL.md', 'forms.md'], warnings: [], scripts: false };
const mcpMeta = { server: 'github-mcp', state: 'connected', tools: 12, transport: { kind: 'stdio' } };

function withMeta() {
  const state = makeState();
  const skills = state.skills.map((s) => (s.name === 'notes' ? { ...s, meta: folderMeta } : s));
  const tree = state.tree!;
  return {
    state,
    skills,
    tree: {
      ...tree,
      skills: tree.skills.map((s) =>
        s.name === 'notes' ? { ...s, meta: folderMeta, tools: s.tools.map((t) => ({ ...t, meta: mcpMeta })) } : s,
      ),
    },
  };
}

const chips = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((li) => [li.querySelector('.meta-key')!.textContent, li.querySelector('.meta-value')!.textContent]);

describe('meta chips', () => {
  it("Skills shows a skill's meta as key/value chips, whatever its shape", () => {
    const { state, skills } = withMeta();
    render(<Skills skills={skills} loaded={state.loaded} config={state.config} />);
    expect(chips(screen.getByRole('list', { name: 'meta of notes' }))).toEqual([
      ['source', 'skills/pdf/SKILL.md'],
      ['files', 'SKILL.md, forms.md'],
      ['warnings', '—'],
      ['scripts', 'false'],
    ]);
    // A skill without meta gets no chips.
    expect(screen.queryByRole('list', { name: 'meta of weather' })).toBeNull();
  });

  it("Tree shows a skill's and a tool's meta", () => {
    const { tree } = withMeta();
    render(<Tree tree={tree} />);
    expect(chips(screen.getByRole('list', { name: 'meta of notes' }))[1]).toEqual(['files', 'SKILL.md, forms.md']);
    expect(chips(screen.getByRole('list', { name: 'meta of add_note' }))).toEqual([
      ['server', 'github-mcp'],
      ['state', 'connected'],
      ['tools', '12'],
      ['transport', '{"kind":"stdio"}'],
    ]);
    expect(screen.queryByRole('list', { name: 'meta of now' })).toBeNull();
  });

  it('cuts long values in the chip and keeps the whole value in its tooltip', () => {
    const { state } = withMeta();
    const long = 'x'.repeat(200);
    render(
      <Skills
        skills={state.skills.map((s) => ({ ...s, meta: { note: long } }))}
        loaded={state.loaded}
        config={state.config}
      />,
    );
    const chip = screen.getByRole('list', { name: 'meta of notes' }).querySelector('[data-meta=note]')!;
    expect(chip.querySelector('.meta-value')!.textContent).toHaveLength(80);
    expect(chip.getAttribute('title')).toBe(`note: ${long}`);
  });
});
