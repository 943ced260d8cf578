import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Stores } from './Stores.js';

describe('Stores', () => {
  it('shows each store state and updates when it changes', () => {
    const { rerender } = render(<Stores stores={{ notes: { notes: ['buy milk'] }, cart: { items: [] } }} />);
    expect([...document.querySelectorAll('[data-store]')].map((s) => s.getAttribute('data-store'))).toEqual([
      'cart',
      'notes',
    ]);
    expect(document.querySelector('[data-store=notes]')!.textContent).toContain('"buy milk"');
    rerender(<Stores stores={{ notes: { notes: ['buy milk', 'call mom'] }, cart: { items: [] } }} />);
    expect(document.querySelector('[data-store=notes]')!.textContent).toContain('"call mom"');
  });

  it('says when no store is in use', () => {
    render(<Stores stores={{}} />);
    expect(screen.getByText(/No store is in use yet/)).toBeTruthy();
  });
});
