import { join } from 'node:path';
import { loadSkillFolders, readSkillFolder } from '@skilltree/agent-skills';
import { expect, test } from 'vitest';
import { SKILLS_DIR } from '../src/kitchen.js';
import { own, read, renderKitchen } from './helpers.js';

test('the catalog lists the three folder skills, from their frontmatter, and the MCP skill', () => {
  const agent = renderKitchen();
  expect(agent.session.skills.map((s) => s.name)).toEqual(['food-safety', 'meal-planning', 'recipe-scaling', 'units']);
  const { system } = agent.request();
  expect(system).toMatch(/^- food-safety — Safe cooking temperatures, cooling and storage times/m);
  expect(system).toMatch(/^- meal-planning — Plan meals for a week/m);
  expect(system).toMatch(/^- recipe-scaling — Scale a recipe up or down/m);
  expect(system).toMatch(/^- units — Convert kitchen units exactly/m);
  // Nothing is loaded yet: only the read tool, no instructions, no server.
  expect(agent.request().tools.map((t) => t.name)).toEqual(['read_skill']);
  expect(agent.request().context).not.toContain('food-safety');
});

test('the folders follow the Agent Skills specification to the letter: strict mode accepts them', () => {
  expect(() => loadSkillFolders(SKILLS_DIR, { strict: true })).not.toThrow();
  for (const name of ['food-safety', 'meal-planning', 'recipe-scaling']) {
    const folder = readSkillFolder(join(SKILLS_DIR, name), { strict: true });
    expect(folder.issues).toEqual([]);
    expect(folder.name).toBe(name);
    expect(folder.license).toBe('MIT');
  }
  expect(renderKitchen().session.warnings).toEqual([]);
});

test('reading a folder skill loads its SKILL.md body, its file list and its read tool', async () => {
  const agent = renderKitchen();
  const result = await read(agent, 'food-safety');
  expect(own(result)).toBe('Loaded skill "food-safety"; it is now active.');

  const skill = agent.getSkill('food-safety');
  expect(skill.active).toBe(true);
  expect(skill.tools).toEqual(['food-safety_read_file']);
  expect(skill.text).toContain('# Food safety');
  expect(skill.text).toContain('1. Read `references/temperatures.md` and find the food.');
  expect(skill.text).not.toContain('description:'); // the frontmatter is in the catalog, not here
  expect(skill.text).toMatch(/^references\/temperatures\.md \(1\.\d KB\)$/m);
  expect(skill.text).toMatch(/^references\/storage\.md \(1\.\d KB\)$/m);
  expect(agent.request().tools.map((t) => t.name)).toEqual(['read_skill', 'food-safety_read_file']);
});

test("a folder skill's read tool returns the folder's files, and refuses paths outside it", async () => {
  const agent = renderKitchen();
  await read(agent, 'recipe-scaling');
  const weights = await agent.callTool('recipe-scaling_read_file', { path: 'references/ingredient-weights.md' });
  expect(weights.isError).toBeFalsy();
  expect(own(weights)).toMatch(/^\| All-purpose flour\s+\| 120\s+\|$/m);

  const outside = await agent.callTool('recipe-scaling_read_file', { path: '../food-safety/SKILL.md' });
  expect(outside.isError).toBe(true);
});

test('each folder skill brings its own read tool, named after it', async () => {
  const agent = renderKitchen();
  await read(agent, 'food-safety');
  await read(agent, 'meal-planning');
  await read(agent, 'recipe-scaling');
  expect(agent.request().tools.map((t) => t.name)).toEqual([
    'read_skill',
    'food-safety_read_file',
    'meal-planning_read_file',
    'recipe-scaling_read_file',
  ]);
  const template = await agent.callTool('meal-planning_read_file', { path: 'assets/shopping-list.md' });
  expect(own(template)).toContain('# Shopping list — week of {date}');
});
