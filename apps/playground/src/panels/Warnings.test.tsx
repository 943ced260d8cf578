import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Warnings } from './Warnings.js';

describe('Warnings', () => {
  it('lists every session warning with who reported it', () => {
    render(
      <Warnings
        warnings={[
          { message: 'SKILL.md has no description', source: 'agent-skills:pdf' },
          { message: 'Skill "weather" could not be kept after the reload' },
        ]}
      />,
    );
    const banner = screen.getByRole('status', { name: 'Session warnings' });
    expect(banner.textContent).toContain('2 warnings from the session');
    const items = within(banner).getAllByRole('listitem');
    expect(items.map((li) => li.textContent?.trim())).toEqual([
      'agent-skills:pdf SKILL.md has no description',
      'Skill "weather" could not be kept after the reload',
    ]);
    expect(items[0].getAttribute('data-warning-source')).toBe('agent-skills:pdf');
  });

  it('shows nothing without warnings', () => {
    const { container } = render(<Warnings warnings={[]} />);
    expect(container.innerHTML).toBe('');
  });
});
