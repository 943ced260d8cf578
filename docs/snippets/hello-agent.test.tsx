import { createSession, scriptedModel } from '@skilltree/core';
import { expect, test } from 'vitest';
import { NotesAgent } from './hello-agent.js';

test('add_note saves a note and shows it in the context', async () => {
  const session = createSession(<NotesAgent />, {
    model: scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] },
      { toolCalls: [{ name: 'add_note', input: { text: 'buy milk' } }] },
      { text: 'Noted.' },
    ]),
  });

  await session.send('Remember to buy milk');

  expect(session.loadedSkills).toEqual(['notes']);
  expect(session.request().context).toContain('Notes: buy milk');
  expect(session.request().tools.map((t) => t.name)).toEqual(['read_skill', 'add_note']);
  session.dispose();
});

test('an empty note is refused before run is called', async () => {
  const session = createSession(<NotesAgent />);
  await session.readSkill('notes');

  const result = await session.callTool({ id: 'call_1', name: 'add_note', input: { text: '' } });

  expect(result.isError).toBe(true);
  expect(result.content).toMatch(/^Invalid input for tool "add_note": text:/);
  session.dispose();
});
