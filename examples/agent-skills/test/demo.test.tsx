import type { Message, ToolMessage } from '@skilltree/core';
import { playDemo } from '@skilltree/test-kit';
import { renderAgent } from '@skilltree/testing';
import { expect, test } from 'vitest';
import KitchenAgent, { demo } from '../agent.js';
import { own } from './helpers.js';

const toolResults = (messages: readonly Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool');

test('the module exports the agent and a demo the CLI can play', () => {
  expect(typeof KitchenAgent).toBe('function');
  expect(demo.messages).toHaveLength(1);
  // A fresh model per call: the CLI may play the demo more than once.
  expect(demo.model()).not.toBe(demo.model());
});

test('the demo plays end to end: a folder skill, one of its files, the MCP skill and a call of its server', async () => {
  const { agent, model, replies } = await playDemo(demo, (model) => renderAgent(<KitchenAgent />, { model }));

  expect(model.remaining).toBe(0);
  expect(replies).toEqual([
    'Yes, they are done: poultry is safe at 165 °F (74 °C) in the thickest part, with no rest time needed. 165 °F is 73.89 °C.',
  ]);
  const results = toolResults(agent.transcript);
  expect(results.map((m) => `${m.name} ${m.isError ? 'error' : 'ok'}`)).toEqual([
    'read_skill ok',
    'food-safety_read_file ok',
    'read_skill ok',
    'units_convert ok',
  ]);
  expect(own(results[1])).toMatch(/^# Minimum internal temperatures/);
  expect(own(results[3])).toBe('165 °F = 73.89 °C');

  // What the model had when it answered: both skills loaded, units active, the server's tools offered.
  const last = model.requests.at(-1)!;
  expect(last.context).toMatch(/<skill name="food-safety">[\s\S]*<skill name="units" active="true">/);
  expect(last.tools.map((t) => t.name)).toEqual([
    'read_skill',
    'food-safety_read_file',
    'units_convert',
    'units_list_units',
  ]);
});
