/** Folder skills under `@skilltree/testing`, the way users test their agents. */
import { Agent, textOf } from '@skilltree/core';
import { renderAgent } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { loadSkillFolders } from '../src/index.js';
import { fixture } from './helpers.js';

let unmount: (() => void) | undefined;
afterEach(() => unmount?.());

test('renderAgent: read the skill, query its text and tools, call its read tool as the model would', async () => {
  const agent = renderAgent(<Agent>{loadSkillFolders(fixture('skills'))}</Agent>);
  unmount = agent.unmount;
  expect(agent.queryByTool('pdf-forms_read_file')).toBeNull();
  await agent.readSkill('pdf-forms');
  expect(agent).toHaveActiveSkill('pdf-forms');
  expect(agent).toHaveTool('pdf-forms_read_file');
  expect(agent).toHaveContext('references/forms/w9.md (93 B)');
  agent.getByText(/^1\. Read references\/REFERENCE\.md for the field names\.$/);
  const result = await agent.callTool('pdf-forms_read_file', { path: 'references/forms/w9.md' });
  expect(textOf(result)).toMatch(/^# W-9\n/);
  expect(agent.getSkill('pdf-forms').tools).toEqual(['pdf-forms_read_file']);
});
