import { textOf } from '@skilltree/core';
import { act, cleanup, getIsReactActEnvironment, renderAgent, waitFor } from '@skilltree/testing';
import { afterEach, beforeEach, expect, type MockInstance, test, vi } from 'vitest';
import { DeskAgent, loadProfile } from './fixtures/async-skills.js';
import { cart, ShopAgent } from './fixtures/shop.js';

let consoleError: MockInstance<typeof console.error>;

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  consoleError.mockRestore();
});

const actWarnings = () =>
  consoleError.mock.calls.map((args) => args.map(String).join(' ')).filter((text) => text.includes('act('));

test('importing @skilltree/testing sets IS_REACT_ACT_ENVIRONMENT', () => {
  expect(getIsReactActEnvironment()).toBe(true);
});

test('a full test prints no "not wrapped in act" warning', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  await agent.callTool('search', { q: 'lamp' });
  await agent.callTool('add_to_cart', { sku: 'lamp' });
  await agent.callTool('nope', {});
  await agent.rerender(<ShopAgent plan="pro" />);
  expect(agent.getByText('Plan: pro')).toBeTruthy();
  act(() => {
    cart.of(agent.session).setState({ items: [] });
  });
  expect(agent.getByText('Cart: empty')).toBeTruthy();
  agent.unmount();
  expect(consoleError).not.toHaveBeenCalled();
});

test('async skills (effects, Suspense) print no act warning when the test waits with findBy', async () => {
  const agent = renderAgent(<DeskAgent profile={loadProfile()} />);
  await agent.readSkill('orders');
  await agent.findByText('Orders: A-1, B-2, C-3');
  await agent.callTool('cancel_order', { id: 'B-2' });
  await agent.readSkill('profile');
  await agent.findByTool('email_customer');
  await waitFor(() => expect(agent.getByText('Customer: Ada')).toBeTruthy());
  expect(consoleError).not.toHaveBeenCalled();
});

test('the environment is restored after an async operation, so updates that escape act are still reported', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  expect(getIsReactActEnvironment()).toBe(true);
  // Test code changing a store outside act is a mistake React reports; the testing package must not hide it.
  cart.of(agent.session).setState({ items: ['desk'] });
  await act(async () => {});
  expect(actWarnings().length).toBeGreaterThan(0);
});

test('act flushes updates made by test code', () => {
  const agent = renderAgent(<ShopAgent />);
  return agent.readSkill('shopping').then(() => {
    act(() => {
      cart.of(agent.session).setState({ items: ['chair'] });
    });
    expect(agent.getByText('Cart: chair')).toBeTruthy();
    expect(agent.getByTool('checkout')).toBeTruthy();
    expect(consoleError).not.toHaveBeenCalled();
  });
});

test('async act resolves with the callback value and restores the environment', async () => {
  const value = await act(async () => 42);
  expect(value).toBe(42);
  expect(getIsReactActEnvironment()).toBe(true);
});

test('calling a session operation inside act fails with a clear error instead of recording a stale result', async () => {
  const agent = renderAgent(<ShopAgent />);
  await expect(act(() => agent.readSkill('shopping'))).rejects.toThrow(
    'agent.readSkill() was called inside act(...). Call it without act',
  );
  await agent.readSkill('shopping');
  await expect(act(() => agent.callTool('search', { q: 'lamp' }))).rejects.toThrow(
    'agent.callTool() was called inside act(...)',
  );
  expect(agent.transcript).toEqual([]);
  // The agent keeps working after the failed act.
  const result = await agent.callTool('search', { q: 'lamp' });
  expect(textOf(result)).toContain('contextChanged shopping added: Searches: 1');
});

test('act returns the value of a synchronous callback', () => {
  expect(act(() => 42)).toBe(42);
});
