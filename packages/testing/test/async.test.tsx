import { textOf } from '@skilltree/core';
import { cleanup, renderAgent, waitFor } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { DeskAgent, loadProfile } from './fixtures/async-skills.js';

afterEach(cleanup);

test('a skill that loads data in an effect: findByText waits for it', async () => {
  const agent = renderAgent(<DeskAgent profile={loadProfile()} />);
  await agent.readSkill('orders');
  // readSkill settles React's work; the data itself arrives later.
  expect(agent.getByText('Loading orders…').skill).toBe('orders');
  expect(agent.queryByTool('cancel_order')).toBeNull();

  const line = await agent.findByText(/^Orders:/);
  expect(line.text).toBe('Orders: A-1, B-2, C-3');
  expect(await agent.findByTool('cancel_order')).toMatchObject({ skill: 'orders' });

  const result = await agent.callTool('cancel_order', { id: 'B-2' });
  expect(textOf(result)).toContain('cancelled B-2');
  expect(agent).toHaveContext('Orders: A-1, C-3');
});

test('a suspended skill: findBy* waits for the Suspense boundary to resolve', async () => {
  const agent = renderAgent(<DeskAgent profile={loadProfile(30)} />);
  await agent.readSkill('profile');
  expect(agent.getByText('Loading profile…')).toBeTruthy();
  expect(agent).not.toHaveTool('email_customer');

  expect((await agent.findByTool('email_customer')).skill).toBe('profile');
  expect(agent.getByText('Customer: Ada')).toBeTruthy();
  expect(agent.queryByText('Loading profile…')).toBeNull();
});

test('waitFor retries an assertion until it passes, and rejects with its last error', async () => {
  const agent = renderAgent(<DeskAgent profile={loadProfile()} />);
  await agent.readSkill('orders');
  await waitFor(() => expect(agent).toHaveTool('cancel_order'));
  await expect(waitFor(() => expect(agent).toHaveTool('refund'), { timeout: 80, interval: 10 })).rejects.toThrow(
    'expected the request to offer a tool "refund"',
  );
});

test('findBy* rejects with the getBy error when nothing shows up', async () => {
  const agent = renderAgent(<DeskAgent profile={new Promise(() => {})} />);
  await agent.readSkill('profile');
  await expect(agent.findByText('Customer: Ada', {}, { timeout: 80 })).rejects.toThrow(
    /^Unable to find text "Customer: Ada" in the system prompt or <current_context>\./,
  );
});
