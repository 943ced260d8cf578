import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeView } from '../../test/state.js';
import { Skills } from './Skills.js';
import { Tree } from './Tree.js';

/** What a folder skill and an MCP tool might report; the panels know neither shape. */
const folderMeta = { source: 'skills/pdf/SKILL.md', files: ['SKILL.md', 'forms.md'], warnings: [], scripts: false };
const mcpMeta = { server: 'github-mcp', state: 'connected', tools: 12, transport: { kind: 'stdio' } };

/** Core's view with meta on the notes skill and its tool, as the dev server sends it. */
function withMeta() {
  const view = makeView();
  return makeView({
    skills: view.skills.map((s) => (s.name === 'notes' ? { ...s, meta: folderMeta } : s)),
    tools: view.tools.map((t) => (t.name === 'add_note' ? { ...t, meta: mcpMeta } : t)),
  });
}

const chips = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((li) => [li.querySelector('.meta-key')!.textContent, li.querySelector('.meta-value')!.textContent]);

describe('meta chips', () => {
  it("Skills shows a skill's meta as key/value chips, whatever its shape", () => {
    render(<Skills view={withMeta()} />);
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
    render(<Tree view={withMeta()} />);
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
    const view = withMeta();
    const long = 'x'.repeat(200);
    render(<Skills view={{ ...view, skills: view.skills.map((s) => ({ ...s, meta: { note: long } })) }} />);
    const chip = screen.getByRole('list', { name: 'meta of notes' }).querySelector('[data-meta=note]')!;
    expect(chip.querySelector('.meta-value')!.textContent).toHaveLength(80);
    expect(chip.getAttribute('title')).toBe(`note: ${long}`);
  });
});
