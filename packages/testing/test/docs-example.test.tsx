import { scriptedModel, textOf } from '@skilltree/core';
import { callTool, readSkill, renderAgent, reply, within } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { expect, test } from 'vitest';
import { SupportAgent, type TicketApi } from './docs-example.js';

/** A fake ticket API that remembers what was closed. */
function fakeApi(tickets: string[]) {
  const closed: string[] = [];
  const api: TicketApi = {
    list: async () => [...tickets],
    close: async (id) => {
      closed.push(id);
    },
  };
  return { api, closed };
}

test('the catalog lists the skill; its tools wait until the model reads it', () => {
  const { api } = fakeApi(['T-1']);
  const agent = renderAgent(<SupportAgent api={api} />);

  expect(agent.getByText('- tickets — List and close support tickets').source).toBe('system');
  expect(agent).not.toHaveLoadedSkill('tickets');
  expect(agent.queryByTool('close_ticket')).toBeNull();
});

test('reading the skill loads the open tickets', async () => {
  const { api } = fakeApi(['T-1', 'T-2']);
  const agent = renderAgent(<SupportAgent api={api} />);

  await agent.readSkill('tickets');

  expect(agent).toHaveActiveSkill('tickets');
  // The list arrives from a promise in an effect: findBy* waits for it.
  await agent.findByText('Open tickets: T-1, T-2');
  const tickets = within(agent.getSkill('tickets'));
  expect(tickets.getAllTools().map((tool) => tool.name)).toEqual(['close_ticket']);
});

test('close_ticket closes the ticket, and the model sees the change', async () => {
  const { api, closed } = fakeApi(['T-1', 'T-2']);
  const agent = renderAgent(<SupportAgent api={api} />);
  await agent.readSkill('tickets');
  await agent.findByTool('close_ticket');

  const result = await agent.callTool('close_ticket', { id: 'T-1' });

  expect(closed).toEqual(['T-1']);
  expect(textOf(result)).toContain('Closed T-1');
  expect(textOf(result)).toContain('contextChanged tickets added: Open tickets: T-2');
  expect(agent).toHaveContext('Open tickets: T-2');
});

test('mistakes come back to the model as error results', async () => {
  const { api, closed } = fakeApi(['T-1']);
  const agent = renderAgent(<SupportAgent api={api} />);
  await agent.readSkill('tickets');
  await agent.findByTool('close_ticket');

  const wrongId = await agent.callTool('close_ticket', { id: 'T-9' });
  const noId = await agent.callTool('close_ticket', {});

  expect(wrongId.isError).toBe(true);
  expect(textOf(wrongId)).toMatch(/^Tool "close_ticket" failed: No open ticket T-9/);
  expect(noId.isError).toBe(true);
  expect(textOf(noId)).toMatch(/^Invalid input for tool "close_ticket": id:/);
  expect(closed).toEqual([]);
});

test('a whole conversation with a scripted model', async () => {
  const { api, closed } = fakeApi(['T-1']);
  const model = scriptedModel([
    readSkill('tickets'),
    callTool('close_ticket', { id: 'T-1' }),
    reply('Done: T-1 is closed.'),
  ]);
  const agent = renderAgent(<SupportAgent api={api} />, { model });

  const turn = await agent.say('Please close T-1');

  expect(turn.text).toBe('Done: T-1 is closed.');
  expect(closed).toEqual(['T-1']);
  expect(agent).toHaveContext('Open tickets: none');
  expect(agent).not.toHaveTool('close_ticket');
  // Tool-call ids are per-session counters, so the request is the same on every run.
  expect(agent.request()).toMatchSnapshot();
});
