import { describe, expect, test } from 'vitest';
import { identifyDana, ok, read, renderDesk } from './helpers.js';

describe('shipping skill', () => {
  test('shows parcels in transit and tracks one', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'shipping');
    expect(agent.getByText('In transit: A-1042 with Royal Post, due 2026-03-16').skill).toBe('shipping');
    const content = ok(await agent.callTool('track_shipment', { orderId: 'A-1042' }));
    expect(content).toMatch(/^A-1042: Royal Post, tracking RO\d{10}, shipped 2026-03-10\./);
    expect(content).toContain('2026-03-10 Fulfilment centre, Leeds: Picked up by carrier');
    expect(content).toMatch(/Expected 2026-03-16: on time\.$/);
  });

  test('a delivered order says when; an unshipped one says so', async () => {
    const { agent } = renderDesk();
    await identifyDana(agent);
    await read(agent, 'shipping');
    expect(ok(await agent.callTool('track_shipment', { orderId: 'A-1013' }))).toMatch(/Delivered 2026-03-02\.$/);
    expect(ok(await agent.callTool('track_shipment', { orderId: 'A-1057' }))).toBe(
      'A-1057 has not shipped (status: processing).',
    );
  });
});
