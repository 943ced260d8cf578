/**
 * One test per lifecycle rule: the seed's table and SPEC section 3, each named after its rule.
 */
import { useEffect, useState } from 'react';
import { beforeEach, describe, expect, test } from 'vitest';
import { Agent, createSession, type Session, Skill, scriptedModel, Text, Tool, useAgentStore } from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { call, cart, log, ShopAgent, SkillsAgent } from './fixtures.js';

const toolNames = (session: Session) => session.request().tools.map((t) => t.name);

beforeEach(() => {
  log.length = 0;
});

describe('reading', () => {
  test('reading an unloaded skill mounts it and makes it active', async () => {
    const session = createSession(<ShopAgent />);
    expect(log).toEqual([]);
    expect(session.request().context).not.toContain('Search before you add.');

    const result = await call(session, 'read_skill', { name: 'shopping' });

    expect(result.isError).toBeUndefined();
    expect(log).toEqual(['shopping mounted']);
    expect(session.loadedSkills).toEqual(['shopping']);
    expect(session.activeSkill).toBe('shopping');
    expect(session.request().context).toContain('<skill name="shopping" active="true">');
    expect(session.request().context).toContain('Search before you add. Be brief.');
    expect(toolNames(session)).toEqual(['read_skill', 'search', 'add_to_cart']);
  });

  test('reading a loaded skill makes it active without remounting', async () => {
    const session = createSession(<ShopAgent />);
    await call(session, 'read_skill', { name: 'shopping' });
    await call(session, 'search', { q: 'lamp' });
    await call(session, 'read_skill', { name: 'refunds' });
    expect(session.activeSkill).toBe('refunds');

    const result = await call(session, 'read_skill', { name: 'shopping' });

    expect(textOf(result)).toContain('already loaded');
    expect(log).toEqual(['shopping mounted']);
    expect(session.loadedSkills).toEqual(['refunds', 'shopping']);
    expect(session.request().context).toContain('Searches: 1');
  });

  test('session.readSkill does the same from code', async () => {
    const session = createSession(<ShopAgent />);
    const result = await session.readSkill('refunds');
    expect(result).toEqual({ name: 'refunds', mounted: true, unloaded: [] });
    expect(session.request().context).toContain('Refunds within 30 days.');
    await expect(session.readSkill('nope')).rejects.toThrow(
      'Unknown skill: "nope". Skills: shopping, refunds, alpha, beta.',
    );
  });

  test('reading an unknown skill is an error result that lists the skills', async () => {
    const session = createSession(<ShopAgent />);
    const result = await call(session, 'read_skill', { name: 'shiping' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Unknown skill: "shiping". Skills: shopping, refunds, alpha, beta.');
  });

  test('the request carries read_skill whenever the tree has a Skill, and not otherwise', () => {
    expect(toolNames(createSession(<ShopAgent />))).toEqual(['read_skill']);
    const plain = createSession(
      <Agent>
        <Tool name="now" description="time" run={() => 'noon'} />
      </Agent>,
    );
    expect(toolNames(plain)).toEqual(['now']);
  });
});

describe('LRU', () => {
  test('at most maxLoadedSkills (default 3) are loaded; reading one more unloads the least recently read', async () => {
    const session = createSession(<ShopAgent />);
    for (const name of ['shopping', 'refunds', 'alpha']) await call(session, 'read_skill', { name });
    expect(session.loadedSkills).toEqual(['shopping', 'refunds', 'alpha']);

    const result = await call(session, 'read_skill', { name: 'beta' });

    expect(session.loadedSkills).toEqual(['refunds', 'alpha', 'beta']);
    expect(log).toEqual(['shopping mounted', 'shopping cleanup']);
    expect(textOf(result)).toContain('Unloaded "shopping"');
  });

  test('maxLoadedSkills comes from <Agent> and can be overridden by the session options', async () => {
    const fromProp = createSession(<ShopAgent maxLoadedSkills={1} />);
    await fromProp.readSkill('alpha');
    await fromProp.readSkill('beta');
    expect(fromProp.loadedSkills).toEqual(['beta']);

    const fromOption = createSession(<ShopAgent maxLoadedSkills={1} />, { maxLoadedSkills: 2 });
    await fromOption.readSkill('alpha');
    await fromOption.readSkill('beta');
    expect(fromOption.loadedSkills).toEqual(['alpha', 'beta']);
  });

  test('the active skill is the one read last', async () => {
    const session = createSession(<ShopAgent />);
    await session.readSkill('alpha');
    await session.readSkill('beta');
    await session.readSkill('alpha');
    expect(session.activeSkill).toBe('alpha');
    const { context } = session.request();
    expect(context.indexOf('<skill name="beta">')).toBeLessThan(context.indexOf('<skill name="alpha" active="true">'));
  });

  test("calling a skill's tools does not change its place in the LRU order", async () => {
    const session = createSession(<ShopAgent />);
    for (const name of ['alpha', 'beta', 'refunds']) await session.readSkill(name);
    await call(session, 'alpha_ping');
    expect(session.loadedSkills).toEqual(['alpha', 'beta', 'refunds']);
    await session.readSkill('shopping');
    expect(session.loadedSkills).toEqual(['beta', 'refunds', 'shopping']);
  });

  test('no tool call unloads a skill; only newer reads push it out', async () => {
    const session = createSession(<ShopAgent />);
    await session.readSkill('shopping');
    for (let i = 0; i < 5; i++) await call(session, 'search', { q: `q${i}` });
    await call(session, 'nope');
    expect(session.loadedSkills).toEqual(['shopping']);
  });
});

describe('unloading', () => {
  test('unloading unmounts the subtree: effects clean up, useState and refs are gone, a re-read starts fresh', async () => {
    const session = createSession(<ShopAgent maxLoadedSkills={1} />);
    await session.readSkill('shopping');
    await call(session, 'search', { q: 'lamp' });
    expect(session.request().context).toContain('Searches: 1');
    expect(session.request().context).toContain('Ref: 1');

    await session.readSkill('refunds');
    expect(log).toEqual(['shopping mounted', 'shopping cleanup']);

    await session.readSkill('shopping');
    expect(log).toEqual(['shopping mounted', 'shopping cleanup', 'shopping mounted']);
    expect(session.request().context).toContain('Searches: 0');
    expect(session.request().context).toContain('Ref: 0');
  });

  test('its instructions and text leave <current_context> and its tools leave the request', async () => {
    const session = createSession(<ShopAgent maxLoadedSkills={1} />);
    await session.readSkill('shopping');
    await session.readSkill('refunds');
    const req = session.request();
    expect(req.context).not.toContain('Search before you add');
    expect(req.context).not.toContain('<skill name="shopping"');
    expect(req.tools.map((t) => t.name)).toEqual(['read_skill', 'refund_order']);
    // Still in the catalog.
    expect(req.system).toContain('- shopping — Find and buy products');
  });

  test('createAgentStore state stays across unloads and is there when the skill is read again', async () => {
    const session = createSession(<ShopAgent maxLoadedSkills={1} />);
    await session.readSkill('shopping');
    await call(session, 'add_to_cart', { sku: 'lamp' });
    await session.readSkill('refunds');
    expect(session.store(cart).getState().items).toEqual(['lamp']);
    await session.readSkill('shopping');
    expect(session.request().context).toContain('Cart: lamp');
  });

  test('store instances are per session and shared by every skill', async () => {
    const a = createSession(<ShopAgent />);
    const b = createSession(<ShopAgent />);
    await a.readSkill('shopping');
    await call(a, 'add_to_cart', { sku: 'lamp' });
    expect(cart.of(a).getState().items).toEqual(['lamp']);
    expect(cart.of(b).getState().items).toEqual([]);
    expect(a.store(cart)).toBe(cart.of(a));
  });

  test('tool calls, results and contextChanged lines stay in the transcript after the skill unloads', async () => {
    const session = createSession(<ShopAgent maxLoadedSkills={1} />);
    await session.readSkill('shopping');
    await call(session, 'add_to_cart', { sku: 'lamp' });
    const before = session.transcript.map((m) => ({ ...m }));
    await session.readSkill('refunds');
    await session.send('next').catch(() => {});
    expect(session.transcript.slice(0, before.length)).toEqual(before);
    const text = session.transcript.map((m) => textOf(m)).join('\n');
    expect(text).toContain('added lamp');
    expect(text).toContain('contextChanged shopping added: Cart: lamp');
    expect(text).toContain('contextChanged shopping unloaded');
  });

  test('what the caller and the agent said while a skill was active stays', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
      { text: 'Shopping is open.' },
      { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
      { text: 'Refunds now.' },
    ]);
    const session = createSession(<ShopAgent maxLoadedSkills={1} />, { model });
    await session.send('shop please');
    await session.send('refund please');
    const said = session.transcript.filter((m) => m.role !== 'tool').map((m) => textOf(m));
    expect(said).toEqual(['shop please', '', 'Shopping is open.', 'refund please', '', 'Refunds now.']);
  });
});

describe('tools', () => {
  test("every loaded skill's tools work, not only the active one's", async () => {
    const session = createSession(<ShopAgent />);
    await call(session, 'read_skill', { name: 'alpha' });
    await call(session, 'read_skill', { name: 'beta' });
    expect(session.activeSkill).toBe('beta');
    const result = await call(session, 'alpha_ping');
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'alpha pong' }] });
    expect(result.isError).toBeUndefined();
  });

  test('a call of a tool of an unloaded skill is refused with Unknown tool, naming the skill to read', async () => {
    const session = createSession(<ShopAgent maxLoadedSkills={1} />);
    await session.readSkill('refunds');
    await session.readSkill('shopping');
    const result = await call(session, 'refund_order', { id: 'A1' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Unknown tool: refund_order \(skill "refunds" is not loaded; read it first with read_skill\)/,
    );
    expect(textOf(result)).toContain('Tools available now: read_skill, search, add_to_cart.');
  });

  test('a call of a conditional tool that is not rendered now is refused with Unknown tool', async () => {
    const session = createSession(<ShopAgent />);
    await session.readSkill('shopping');
    const refused = await call(session, 'checkout');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Unknown tool: checkout/);
    await call(session, 'add_to_cart', { sku: 'lamp' });
    expect(await call(session, 'checkout')).toMatchObject({ content: [{ type: 'text', text: 'paid' }] });
  });

  test('a typo is refused with Unknown tool that lists the tools available now', async () => {
    const session = createSession(<ShopAgent />);
    await call(session, 'read_skill', { name: 'shopping' });
    const result = await call(session, 'serch', { q: 'x' });
    expect(textOf(result)).toBe(
      'Unknown tool: serch (did you mean "search"?). Tools available now: read_skill, search, add_to_cart.',
    );
  });

  test('after Unknown tool the conversation goes on', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'refund_order', input: { id: 'A1' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
      { toolCalls: [{ name: 'refund_order', input: { id: 'A1' } }] },
      { text: 'Refunded.' },
    ]);
    const session = createSession(<ShopAgent />, { model });
    const turn = await session.send('refund A1');
    expect(turn).toMatchObject({ text: 'Refunded.', steps: 4 });
    const results = session.transcript.filter((m) => m.role === 'tool');
    expect(textOf(results[0])).toMatch(/^Unknown tool: refund_order/);
    expect(textOf(results[2])).toBe('refunded A1');
    // The model read the refusal: it was in the request that followed.
    expect(textOf(model.requests[1].messages.at(-1)!)).toMatch(/^Unknown tool/);
  });

  test('several calls in one assistant message run one after another, in order', async () => {
    const order: string[] = [];
    const Slow = () => (
      <>
        <Tool
          name="slow"
          description="slow"
          run={async () => {
            order.push('slow start');
            await new Promise((r) => setTimeout(r, 20));
            order.push('slow end');
            return 'slow';
          }}
        />
        <Tool
          name="fast"
          description="fast"
          run={() => {
            order.push('fast');
            return 'fast';
          }}
        />
      </>
    );
    const model = scriptedModel([
      { toolCalls: [{ name: 'slow' }, { name: 'fast' }, { name: 'slow' }] },
      { text: 'done' },
    ]);
    const session = createSession(
      <Agent>
        <Slow />
      </Agent>,
      { model },
    );
    await session.send('go');
    expect(order).toEqual(['slow start', 'slow end', 'fast', 'slow start', 'slow end']);
    expect(session.transcript.filter((m) => m.role === 'tool').map((m) => textOf(m))).toEqual(['slow', 'fast', 'slow']);
  });
});

describe('contextChanged', () => {
  test('a tool call records one contextChanged line per line it added, after the result text', async () => {
    const session = createSession(<ShopAgent />);
    await call(session, 'read_skill', { name: 'shopping' });
    const result = await call(session, 'add_to_cart', { sku: 'lamp' });
    expect(textOf(result).split('\n')).toEqual(['added lamp', 'contextChanged shopping added: Cart: lamp']);
  });

  test('contextChanged carries the first 200 characters of each added line', async () => {
    const long = 'x'.repeat(250);
    const Long = () => {
      const [text, setText] = useState('');
      return (
        <>
          <Text>{text}</Text>
          <Tool name="grow" description="grow" run={() => setText(long)} />
        </>
      );
    };
    const session = createSession(<SkillsAgent skills={{ long: <Long /> }} />);
    await call(session, 'read_skill', { name: 'long' });
    const result = await call(session, 'grow');
    const line = textOf(result).split('\n')[1];
    expect(line).toBe(`contextChanged long added: ${'x'.repeat(200)}`);
    // The context itself keeps the whole line.
    expect(session.request().context).toContain(long);
  });

  test('contextLineLimit changes how many characters are kept', async () => {
    const session = createSession(<ShopAgent contextLineLimit={5} />);
    await call(session, 'read_skill', { name: 'shopping' });
    const result = await call(session, 'add_to_cart', { sku: 'lamp' });
    expect(textOf(result)).toBe('added lamp\ncontextChanged shopping added: Cart:');
  });

  test('loads and unloads are recorded as contextChanged lines naming the skill', async () => {
    const session = createSession(<ShopAgent maxLoadedSkills={1} />);
    const loaded = await call(session, 'read_skill', { name: 'alpha' });
    expect(textOf(loaded).split('\n').slice(1)).toEqual([
      'contextChanged alpha loaded',
      'contextChanged alpha added: alpha is here',
    ]);
    const swapped = await call(session, 'read_skill', { name: 'beta' });
    expect(textOf(swapped).split('\n').slice(1)).toEqual([
      'contextChanged beta loaded',
      'contextChanged alpha unloaded',
      'contextChanged beta added: beta is here',
    ]);
  });

  test('changes made outside a tool call are recorded with the next user or tool message, after its text', async () => {
    const session = createSession(<ShopAgent />, { model: scriptedModel([{ text: 'ok' }]) });
    await session.readSkill('shopping');
    session.store(cart).setState({ items: ['mug'] });
    await session.send('what is in my cart?');
    expect(textOf(session.transcript[0]).split('\n')).toEqual([
      'what is in my cart?',
      'contextChanged shopping loaded',
      'contextChanged shopping added: Search before you add. Be brief.',
      'contextChanged shopping added: Searches: 0',
      'contextChanged shopping added: Ref: 0',
      'contextChanged shopping added: Cart: mug',
    ]);
  });

  test('agent-level text changes are recorded under agent', async () => {
    const Status = () => {
      const [n, setN] = useState(0);
      return (
        <>
          <Text>Visits: {n}</Text>
          <Tool name="visit" description="visit" run={() => setN((v) => v + 1)} />
        </>
      );
    };
    const session = createSession(
      <Agent>
        <Status />
      </Agent>,
    );
    const result = await call(session, 'visit');
    expect(textOf(result)).toBe('OK\ncontextChanged agent added: Visits: 1');
  });

  test('contextChanged lines stay after the skill unloads, so a later skill can read them', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
      { toolCalls: [{ name: 'add_to_cart', input: { sku: 'lamp' } }] },
      { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
      { text: 'done' },
    ]);
    const session = createSession(<ShopAgent maxLoadedSkills={1} />, { model });
    await session.send('buy and refund');
    const last = model.requests.at(-1)!;
    expect(last.context).not.toContain('Cart: lamp');
    expect(last.messages.map((m) => textOf(m)).join('\n')).toContain('contextChanged shopping added: Cart: lamp');
  });
});

describe('freshness', () => {
  test('the tool result and the next request reflect useState setters, store updates and effect-set state', async () => {
    const Derived = () => {
      const [count, setCount] = useState(0);
      const [doubled, setDoubled] = useState(0);
      const items = useAgentStore(cart, (s) => s.items.length);
      useEffect(() => {
        setDoubled(count * 2);
      }, [count]);
      return (
        <>
          <Text>
            count {count} doubled {doubled} items {items}
          </Text>
          <Tool
            name="bump"
            description="bump"
            run={(_, ctx) => {
              setCount((c) => c + 1);
              cart.of(ctx).setState((s) => ({ items: [...s.items, 'x'] }));
              return 'bumped';
            }}
          />
          <Tool
            name="bump_later"
            description="bump after an await"
            run={async () => {
              await new Promise((r) => setTimeout(r, 5));
              setCount((c) => c + 1);
              return 'later';
            }}
          />
        </>
      );
    };
    const session = createSession(
      <Agent>
        <Derived />
      </Agent>,
    );
    const result = await call(session, 'bump');
    expect(textOf(result)).toBe('bumped\ncontextChanged agent added: count 1 doubled 2 items 1');
    expect(session.request().context).toContain('count 1 doubled 2 items 1');
    await call(session, 'bump_later');
    expect(session.request().context).toContain('count 2 doubled 4 items 1');
  });
});

describe('rendering mode', () => {
  test('sessions render without StrictMode; strictMode: true turns it on', async () => {
    const mounts: string[] = [];
    const Probe = () => {
      useEffect(() => {
        mounts.push('mount');
      }, []);
      return <Text>probe</Text>;
    };
    createSession(
      <Agent>
        <Probe />
      </Agent>,
    );
    expect(mounts).toEqual(['mount']);
    mounts.length = 0;
    const strict = createSession(
      <Agent>
        <Probe />
      </Agent>,
      { strictMode: true },
    );
    await strict.readSkill('x').catch(() => {});
    expect(mounts).toEqual(['mount', 'mount']);
  });
});

describe('changing the tree', () => {
  test('a smaller maxLoadedSkills after a rerender pushes out the least recently read', async () => {
    const session = createSession(<ShopAgent />);
    for (const name of ['alpha', 'beta', 'refunds']) await session.readSkill(name);
    await session.rerender(<ShopAgent maxLoadedSkills={1} />);
    expect(session.loadedSkills).toEqual(['refunds']);
    expect(session.request().tools.map((t) => t.name)).toEqual(['read_skill', 'refund_order']);
  });

  test('a skill removed from the tree while loaded leaves the loaded set', async () => {
    const Conditional = ({ withBeta }: { withBeta: boolean }) => (
      <Agent>
        <Skill name="alpha" description="A">
          <Text>a</Text>
        </Skill>
        {withBeta && (
          <Skill name="beta" description="B">
            <Text>b</Text>
          </Skill>
        )}
      </Agent>
    );
    const session = createSession(<Conditional withBeta />);
    await session.readSkill('alpha');
    await session.readSkill('beta');
    await session.rerender(<Conditional withBeta={false} />);
    expect(session.loadedSkills).toEqual(['alpha']);
    expect(session.request().system).not.toContain('beta');
  });
});
