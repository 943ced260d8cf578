import { describe, expect, test } from 'vitest';
import { desk } from '../src/store.js';
import { changes, identifyDana, ok, read, renderDesk, text } from './helpers.js';

describe('account skill', () => {
  test('identify_customer puts the customer in the store and in <current_context>', async () => {
    const { agent } = renderDesk();
    expect(agent.getByText('Customer: not identified yet (account skill, identify_customer).').skill).toBeNull();
    await read(agent, 'account');
    expect(agent.getSkill('account').tools).toEqual(['identify_customer']);

    const result = await agent.callTool('identify_customer', { email: 'Dana.Whitfield@Example.com' });
    expect(ok(result)).toMatch(/^Identified Dana Whitfield \(C-1001\), customer since 2023-05-02, 6 orders\./);
    expect(changes(result)).toEqual([
      'contextChanged agent added: Customer: Dana Whitfield <dana.whitfield@example.com> (C-1001)',
      'contextChanged account added: Identified: Dana Whitfield (C-1001), customer since 2023-05-02. Address on file: 14 Alder Row, Bristol BS1 4DJ, UK',
    ]);
    expect(agent.session.store(desk).getState().customer).toEqual({
      id: 'C-1001',
      name: 'Dana Whitfield',
      email: 'dana.whitfield@example.com',
    });
    // update_address is offered only once someone is identified.
    expect(agent.getSkill('account').tools).toEqual(['identify_customer', 'update_address']);
  });

  test('an unknown email identifies nobody', async () => {
    const { agent } = renderDesk();
    await read(agent, 'account');
    const result = await agent.callTool('identify_customer', { email: 'nobody@example.com' });
    expect(ok(result)).toMatch(/^No account uses nobody@example\.com/);
    expect(agent.session.store(desk).getState().customer).toBeNull();
    expect(agent.queryByTool('update_address')).toBeNull();
  });

  test('a malformed email is refused before the tool runs', async () => {
    const { agent } = renderDesk();
    await read(agent, 'account');
    const result = await agent.callTool('identify_customer', { email: 'dana' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Invalid input for tool "identify_customer": email:/);
  });

  test('update_address writes the database and opens a ticket', async () => {
    const { agent, db } = renderDesk();
    await identifyDana(agent);
    const result = await agent.callTool('update_address', { address: '2 Quay Street, Bristol BS1 5AB, UK' });
    expect(ok(result)).toMatch(/^Address updated\./);
    expect(db.customer('C-1001')?.address).toBe('2 Quay Street, Bristol BS1 5AB, UK');
    expect(agent.getByText(/Address on file: 2 Quay Street/).skill).toBe('account');
    expect(agent.getByText('Tickets: T-1 address-change (done)').skill).toBeNull();
  });
});
