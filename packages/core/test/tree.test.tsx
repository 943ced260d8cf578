/**
 * readTree's cache: the same snapshot while nothing changed, a new one when anything did, and a
 * skill's problems kept while its cached entry is reused.
 */
import { describe, expect, test } from 'vitest';
import { Agent, Instructions, Skill, Text, Tool } from '../src/index.js';
import { mountTree } from './mount-tree.js';

const Tree = ({ note, shop }: { note: string; shop: string }) => (
  <Agent>
    <Instructions>Be brief.</Instructions>
    <Text>{note}</Text>
    <Skill name="shop" description="s">
      <Text>{shop}</Text>
      <Tool name="buy" description="b" run={() => 'ok'} />
    </Skill>
    <Skill name="nest" description="n">
      <Skill name="inner" description="i" />
    </Skill>
  </Agent>
);

describe('readTree cache', () => {
  test('returns the same snapshot while nothing changed, even across a re-render with equal props', () => {
    const tree = mountTree(['shop', 'nest']);
    tree.render(<Tree note="a" shop="x" />);
    const first = tree.read();
    expect(tree.read()).toBe(first);
    tree.render(<Tree note="a" shop="x" />);
    expect(tree.read()).toBe(first);
  });

  test('a change anywhere gives a new snapshot; unchanged skills keep their cached entry', () => {
    const tree = mountTree(['shop', 'nest']);
    tree.render(<Tree note="a" shop="x" />);
    const first = tree.read();
    tree.render(<Tree note="b" shop="x" />);
    const second = tree.read();
    expect(second).not.toBe(first);
    expect(second.agentLines).toEqual(['b']);
    expect(second.skillsByName.get('shop')).toBe(first.skillsByName.get('shop'));
    tree.render(<Tree note="b" shop="y" />);
    const third = tree.read();
    expect(third.skillsByName.get('shop')).not.toBe(second.skillsByName.get('shop'));
    expect(third.skillsByName.get('shop')?.lines).toEqual(['y']);
  });

  test("a skill's problems stay reported while its entry is reused", () => {
    const tree = mountTree(['shop', 'nest']);
    tree.render(<Tree note="a" shop="x" />);
    const problem = 'Skill "inner" is rendered inside skill "nest"';
    expect(
      tree
        .read()
        .problems.map((p) => p.message)
        .join('\n'),
    ).toContain(problem);
    const nest = tree.read().skillsByName.get('nest');
    tree.render(<Tree note="changed" shop="x" />);
    const after = tree.read();
    expect(after.skillsByName.get('nest')).toBe(nest);
    expect(after.problems).toContainEqual(
      expect.objectContaining({ skill: 'nest', message: expect.stringContaining(problem) }),
    );
  });
});
