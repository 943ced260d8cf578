import { textOf } from '@skilltree/core';
import { renderAgent } from '@skilltree/testing';
import { expect, test } from 'vitest';
import { NotesAgent } from './hello-agent.js';

test('add_note saves a note and shows it in the context', async () => {
  const agent = renderAgent(<NotesAgent />);
  await agent.readSkill('notes');

  const result = await agent.callTool('add_note', { text: 'buy milk' });

  expect(textOf(result)).toMatch(/^Saved: buy milk/);
  expect(agent.getSkill('notes').active).toBe(true);
  agent.getByTool('add_note'); // getBy* throws, printing the request, when nothing matches
  agent.getByText('Notes: buy milk');
  agent.unmount();
});

test('an empty note is refused, and run is not called', async () => {
  const agent = renderAgent(<NotesAgent />);
  await agent.readSkill('notes');

  const result = await agent.callTool('add_note', { text: '' });

  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/^Invalid input for tool "add_note": text:/);
  expect(agent.queryByText('Notes: none yet')).not.toBeNull();
  agent.unmount();
});
