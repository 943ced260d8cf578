import { expect, test } from 'vitest';
import { alive, own, read, renderKitchen, serverPid } from './helpers.js';

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test("reading the units skill starts the MCP server and offers its tools, with the server's schemas", async () => {
  const agent = renderKitchen();
  const result = await read(agent, 'units');
  expect(own(result)).toBe('Loaded skill "units"; it is now active.');

  expect(agent.getSkill('units').tools).toEqual(['units_convert', 'units_list_units']);
  const convert = agent.getByTool('units_convert');
  expect(convert.description).toMatch(/^Convert a quantity between kitchen units of the same kind/);
  expect(convert.inputSchema).toMatchObject({
    type: 'object',
    properties: { value: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
    required: ['value', 'from', 'to'],
  });
  expect(alive(serverPid(agent.session, 'units_convert'))).toBe(true);
});

test("a call of an MCP tool returns the server's answer", async () => {
  const agent = renderKitchen();
  await read(agent, 'units');
  expect(own(await agent.callTool('units_convert', { value: 165, from: 'F', to: 'C' }))).toBe('165 °F = 73.89 °C');
  expect(own(await agent.callTool('units_convert', { value: 1.5, from: 'cups', to: 'ml' }))).toBe('1.5 cup = 354.9 ml');
  expect(own(await agent.callTool('units_list_units', { kind: 'temperature' }))).toBe('temperature: C, F');
});

test("the server's error answers and schema violations are error results; the session goes on", async () => {
  const agent = renderKitchen();
  await read(agent, 'units');
  const mixed = await agent.callTool('units_convert', { value: 2, from: 'cup', to: 'g' });
  expect(mixed.isError).toBe(true);
  expect(own(mixed)).toBe(
    'Tool "units_convert" failed: Cannot convert volume (cup) to mass (g); pick units of one kind.',
  );
  const invalid = await agent.callTool('units_convert', { value: 'two', from: 'cup', to: 'ml' });
  expect(invalid.isError).toBe(true);
  expect(own(invalid)).toMatch(/^Invalid input for tool "units_convert": value: expected number/);
  expect(own(await agent.callTool('units_convert', { value: 2, from: 'tbsp', to: 'tsp' }))).toBe('2 tbsp = 6 tsp');
});

test('when newer reads push the units skill out (LRU, 3 loaded), its server process exits', async () => {
  const agent = renderKitchen();
  await read(agent, 'units');
  const pid = serverPid(agent.session, 'units_convert');
  expect(alive(pid)).toBe(true);

  await read(agent, 'food-safety');
  await read(agent, 'recipe-scaling');
  expect(alive(pid)).toBe(true); // three loaded: units is still one of them
  const third = await read(agent, 'meal-planning');
  expect(own(third)).toBe('Loaded skill "meal-planning"; it is now active. Unloaded "units" (least recently read).');

  expect(agent.session.loadedSkills).toEqual(['food-safety', 'recipe-scaling', 'meal-planning']);
  expect(agent.queryByTool('units_convert')).toBeNull();
  await until(() => !alive(pid), `the units server (pid ${pid}) to exit`);

  // Reading it again starts a new server.
  await read(agent, 'units');
  const again = serverPid(agent.session, 'units_convert');
  expect(again).not.toBe(pid);
  expect(own(await agent.callTool('units_convert', { value: 1, from: 'lb', to: 'g' }))).toBe('1 lb = 453.6 g');
});

test('unmounting the agent (the session ends) ends the server too', async () => {
  const agent = renderKitchen();
  await read(agent, 'units');
  const pid = serverPid(agent.session, 'units_convert');
  agent.unmount();
  await until(() => !alive(pid), `the units server (pid ${pid}) to exit`);
});
