/**
 * `<Instructions>` and `<Text>` whose children are only strings and numbers hold their text on the
 * host node (React makes no fiber per string): the prompt reads the same as text React renders
 * string by string, through updates, switches to and from components, and Suspense hiding it.
 */
import { type ReactNode, Suspense } from 'react';
import { describe, expect, test } from 'vitest';
import { directText } from '../src/host/host-config.js';
import { Agent, Instructions, Text } from '../src/index.js';
import { mountTree } from './mount-tree.js';

/** Renders its children through a component, so React makes fibers for them (no direct text). */
const Through = ({ children }: { children?: ReactNode }) => <>{children}</>;

describe('direct text', () => {
  test('strings and numbers are direct text; null, undefined and booleans add nothing; anything else is not', () => {
    expect(directText('a')).toBe('a');
    expect(directText(3)).toBe('3');
    expect(directText(['Customer: ', 'Ada', ' (', 7, ')', null, undefined, false, true])).toBe('Customer: Ada (7)');
    expect(directText([<b key="b" />])).toBeNull();
    expect(directText([['nested']])).toBeNull();
    expect(directText(<Through>x</Through>)).toBeNull();
  });

  test('text of strings and numbers reads the same as text React renders string by string', () => {
    const direct = mountTree([], 'd-');
    direct.render(
      <Agent>
        <Instructions>Be brief. {2} rules.</Instructions>
        <Text>
          Customer: {'Ada'}
          {'\n'}Orders: {3}
        </Text>
      </Agent>,
    );
    const fibers = mountTree([], 'd-');
    fibers.render(
      <Agent>
        <Instructions>
          <Through>Be brief. {2} rules.</Through>
        </Instructions>
        <Text>
          <Through>
            Customer: {'Ada'}
            {'\n'}Orders: {3}
          </Through>
        </Text>
      </Agent>,
    );
    expect(direct.read().instructions).toEqual(['Be brief. 2 rules.']);
    expect(direct.read().agentLines).toEqual(['Customer: Ada', 'Orders: 3']);
    expect(fibers.read().instructions).toEqual(direct.read().instructions);
    expect(fibers.read().agentLines).toEqual(direct.read().agentLines);
  });

  test('a <Text> whose text changes, or switches between plain text and components, reads what it renders now', () => {
    const tree = mountTree([], 'd-');
    const at = (children: ReactNode) => (
      <Agent>
        <Text>{children}</Text>
      </Agent>
    );
    const steps: ReactNode[] = [
      ['count: ', 1],
      ['count: ', 2],
      <Through key="c">from a component</Through>,
      'plain again',
      null,
      'after nothing',
      ['back', <Through key="t"> and through</Through>],
      'done',
    ];
    for (const children of steps) {
      tree.render(at(children));
      // What a tree that rendered only this reads.
      const fresh = mountTree([], 'd-');
      fresh.render(at(children));
      expect(tree.read().agentLines).toEqual(fresh.read().agentLines);
    }
    expect(tree.read().agentLines).toEqual(['done']);
    // One host text node under the element: nothing left over from the switches.
    const agent = tree.host.children[0];
    expect(agent.kind === 'element' && agent.children[0].kind === 'element' && agent.children[0].children).toHaveLength(
      1,
    );
  });

  test('direct text under a Suspense boundary showing its fallback is hidden, and comes back', async () => {
    const tree = mountTree([], 'd-');
    let resolve = () => {};
    const pending = new Promise<void>((r) => {
      resolve = r;
    });
    let ready = false;
    const Wait = () => {
      if (!ready) throw pending;
      return null;
    };
    // A fresh element each time, so the second render re-renders the tree.
    const app = () => (
      <Agent>
        <Suspense fallback={null}>
          <Text>visible once ready</Text>
          <Wait />
        </Suspense>
      </Agent>
    );
    tree.render(app());
    expect(tree.read().agentLines).toEqual([]);
    ready = true;
    resolve();
    await pending;
    await new Promise((r) => setTimeout(r, 0));
    tree.render(app());
    expect(tree.read().agentLines).toEqual(['visible once ready']);
  });
});
