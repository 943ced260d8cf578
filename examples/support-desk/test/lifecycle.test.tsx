import { expect, test } from 'vitest';
import { desk } from '../src/store.js';
import { changes, identifyDana, ok, read, renderDesk, text } from './helpers.js';

test('five skills, at most three loaded: reads push out the least recently read', async () => {
  const { agent } = renderDesk();
  expect(agent.session.config.maxLoadedSkills).toBe(3);
  for (const name of ['account', 'orders', 'shipping']) await read(agent, name);
  expect(agent.session.loadedSkills).toEqual(['account', 'orders', 'shipping']);

  // Reading a loaded skill makes it active without remounting it.
  const again = await read(agent, 'account');
  expect(ok(again)).toBe('Skill "account" was already loaded; it is now active.');
  expect(agent.session.loadedSkills).toEqual(['orders', 'shipping', 'account']);

  const refunds = await read(agent, 'refunds');
  expect(ok(refunds)).toBe('Loaded skill "refunds"; it is now active. Unloaded "orders" (least recently read).');
  expect(changes(refunds).slice(0, 2)).toEqual(['contextChanged refunds loaded', 'contextChanged orders unloaded']);
  expect(agent.session.loadedSkills).toEqual(['shipping', 'account', 'refunds']);
  expect(agent).toHaveActiveSkill('refunds');
  expect(agent).not.toHaveLoadedSkill('orders');
  expect(agent).not.toHaveTool('cancel_order');

  // Calling tools does not change the LRU order: shipping is still the next to go.
  await agent.callTool('track_shipment', { orderId: 'A-1042' });
  await read(agent, 'escalation');
  expect(agent.session.loadedSkills).toEqual(['account', 'refunds', 'escalation']);
});

test('the customer in the store survives the account skill unloading', async () => {
  const { agent } = renderDesk();
  await identifyDana(agent);
  for (const name of ['orders', 'shipping', 'refunds']) await read(agent, name);
  expect(agent).not.toHaveLoadedSkill('account');
  expect(agent.session.store(desk).getState().customer?.name).toBe('Dana Whitfield');
  // Agent-level text reads the store, and so do the other skills' tools.
  expect(agent).toHaveContext('Customer: Dana Whitfield <dana.whitfield@example.com> (C-1001)');
  expect(ok(await agent.callTool('lookup_order', { orderId: 'A-1042' }))).toMatch(/^A-1042 \(2026-03-09\)/);

  // Reading account again remounts it and finds the customer already identified.
  await read(agent, 'account');
  expect(agent.getByText(/^Identified: Dana Whitfield/).skill).toBe('account');
  expect(agent.getSkill('account').tools).toContain('update_address');
});

test("an unloaded skill's tools are refused with Unknown tool, which names the skill to read", async () => {
  const { agent } = renderDesk();
  await identifyDana(agent);
  await read(agent, 'orders');
  ok(await agent.callTool('lookup_order', { orderId: 'A-1042' }));
  for (const name of ['shipping', 'refunds', 'escalation']) await read(agent, name);
  expect(agent.getSkill('orders').loaded).toBe(false);

  const refused = await agent.callTool('lookup_order', { orderId: 'A-1042' });
  expect(refused.isError).toBe(true);
  expect(text(refused)).toMatch(
    /^Unknown tool: lookup_order \(skill "orders" is not loaded; read it first with read_skill\)\. Tools available now: read_skill, /,
  );
  // The model reads the skill and retries; the session is fine.
  await read(agent, 'orders');
  expect(ok(await agent.callTool('lookup_order', { orderId: 'A-1042' }))).toMatch(/^A-1042/);
});

test('every loaded skill works, not only the active one', async () => {
  const { agent, db } = renderDesk();
  await identifyDana(agent);
  await read(agent, 'orders');
  await read(agent, 'escalation');
  expect(agent.session.activeSkill).toBe('escalation');
  ok(await agent.callTool('cancel_order', { orderId: 'A-1057', reason: 'wrong size' }));
  expect(db.order('A-1057')?.status).toBe('cancelled');
});

test('each session gets its own orders database and store', async () => {
  const first = renderDesk();
  await identifyDana(first.agent);
  await read(first.agent, 'orders');
  ok(await first.agent.callTool('cancel_order', { orderId: 'A-1057', reason: 'wrong size' }));

  const second = renderDesk();
  expect(second.agent.session.store(desk).getState()).toEqual({ customer: null, tickets: [] });
  expect(second.db.order('A-1057')?.status).toBe('processing');
});
