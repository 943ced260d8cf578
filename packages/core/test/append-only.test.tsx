/**
 * The append-only request (issue 25): for a model that binds its reasoning to the exact prefix,
 * every request is the previous one plus appended items. Loads, unloads, conditional tools,
 * re-renders and the live context arrive as notes where they happened; the window moves only when
 * a turn starts; reasoning from before a move is never sent again.
 */
import { describe, expect, test } from 'vitest';
import {
  Agent,
  createSession,
  type ModelRequest,
  restoreSession,
  Skill,
  scriptedModel,
  Text,
  textOf,
} from '../src/index.js';
import { type AppendOnlyRequest, printRequest } from '../src/provider.js';
import { ShopAgent } from './fixtures.js';

const read = (name: string) => ({ toolCalls: [{ name: 'read_skill', input: { name } }] });
const use = (name: string, input: unknown = {}) => ({ toolCalls: [{ name, input }] });

/** The first place where `next` does not extend `prev` (same system, tools and leading items), or null. */
function firstChange(prev: AppendOnlyRequest, next: AppendOnlyRequest): string | null {
  if (prev.system !== next.system) return 'system';
  if (JSON.stringify(prev.tools) !== JSON.stringify(next.tools)) return 'tools';
  for (let i = 0; i < prev.items.length; i++) {
    if (JSON.stringify(prev.items[i]) !== JSON.stringify(next.items[i])) return `items.${i}`;
  }
  return null;
}

/** Every request extends the one before it, except where a turn started with a moved window. */
function expectAppendOnly(requests: readonly ModelRequest[]) {
  for (let k = 1; k < requests.length; k++) {
    const prev = requests[k - 1].appendOnly;
    const next = requests[k].appendOnly;
    if (!prev || !next) throw new Error(`request ${k} is not append-only`);
    expect({ request: k, change: firstChange(prev, next) }).toEqual({ request: k, change: null });
  }
}

describe('append-only requests', () => {
  test('every request of an append-only model is the previous request plus appended items; system and tools never change', async () => {
    const model = scriptedModel(
      [
        read('shopping'),
        use('add_to_cart', { sku: 'lamp' }),
        use('checkout'),
        { text: 'Paid.' },
        read('alpha'),
        read('beta'),
        use('beta_ping'),
        { text: 'Pinged.' },
        read('refunds'),
        { text: 'Refunds loaded.' },
      ],
      { appendOnly: true },
    );
    const session = createSession(<ShopAgent />, { model, maxLoadedSkills: 2 });
    await session.send('buy a lamp');
    await session.send('ping beta');
    await session.send('refunds please');
    expect(model.requests.every((r) => r.appendOnly)).toBe(true);
    expectAppendOnly(model.requests);
  });

  test('a load reaches the model as a note after the read, with its context section and a tool addition', async () => {
    const model = scriptedModel([read('shopping'), { text: 'ok' }], { appendOnly: true });
    const session = createSession(<ShopAgent />, { model });
    await session.send('hi');
    const [first, second] = model.requests.map((r) => r.appendOnly!);
    expect(first.tools.map((t) => t.name)).toEqual(['read_skill']);
    const note = second.items.at(-1);
    expect(note).toMatchObject({ role: 'system', removedTools: [] });
    if (note?.role !== 'system') throw new Error('no note');
    expect(note.addedTools.map((t) => t.name)).toEqual(['search', 'add_to_cart']);
    expect(note.text).toContain('<skill name="shopping" active="true">');
    expect(note.text).toContain('Cart: empty');
    // The read's own result comes right before it; nothing before it changed.
    expect(second.items.at(-2)).toMatchObject({ role: 'tool', name: 'read_skill' });
    expect(second.system).toBe(first.system);
  });

  test('printRequest shows an append-only request as the model receives it: the fixed system and tools, then the items with their notes', async () => {
    const model = scriptedModel([read('shopping'), { text: 'ok' }], { appendOnly: true });
    const session = createSession(<ShopAgent />, { model });
    await session.send('hi');
    const printed = printRequest(model.requests[1], { maxLength: Number.POSITIVE_INFINITY });
    expect(printed).toContain('── system (fixed for this conversation)');
    expect(printed).toContain('── tools (1, fixed; notes add and remove)');
    expect(printed).toContain('── items (');
    // No classic sections: there is no separate context in an append-only request.
    expect(printed).not.toContain('── context');
    const note = printed.slice(printed.indexOf('[system note]'));
    expect(note).toContain('<skill name="shopping" active="true">');
    expect(note).toContain('+ tool add_to_cart(');
    // In order: the user message, the read and its result, then the note.
    const order = ['[user]', '→ read_skill(', '[tool read_skill', '[system note]'].map((m) => printed.indexOf(m));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((i) => i >= 0)).toBe(true);
  });

  test('an unload is a note that marks the skill unloaded and removes its tools; a later call of one is refused with Unknown tool naming the skill', async () => {
    const model = scriptedModel([read('alpha'), read('beta'), { text: 'ok' }, use('alpha_ping'), { text: 'refused' }], {
      appendOnly: true,
    });
    const session = createSession(<ShopAgent />, { model, maxLoadedSkills: 1 });
    await session.send('load two');
    const after = model.requests[2].appendOnly!;
    const note = after.items.at(-1);
    if (note?.role !== 'system') throw new Error('no note');
    expect(note.removedTools).toEqual(['alpha_ping']);
    expect(note.text).toContain('<skill name="alpha" unloaded="true"/>');
    const turn = await session.send('ping alpha');
    const refused = turn.messages.find((m) => m.role === 'tool');
    expect(refused).toMatchObject({ isError: true, errorKind: 'unknown-tool' });
    expect(textOf(refused!)).toMatch(/^Unknown tool: alpha_ping \(skill "alpha" is not loaded; read it first/);
    expectAppendOnly(model.requests);
  });

  test('the live context is appended only where it changed: a section the model has is not sent again', async () => {
    const model = scriptedModel(
      [read('shopping'), use('search', { q: 'x' }), use('search', { q: 'y' }), { text: 'ok' }, { text: 'again' }],
      { appendOnly: true },
    );
    const session = createSession(<ShopAgent />, { model });
    await session.send('search');
    await session.send('nothing new');
    const notes = model.requests.at(-1)!.appendOnly!.items.filter((i) => i.role === 'system');
    // The load states the section whole; later notes only the lines it lost and gained.
    const searches = notes.map((n) =>
      n.role === 'system' ? /(?:^|\n)(?:\+ )?Searches: (\d)/.exec(n.text)?.[1] : null,
    );
    expect(searches.filter(Boolean)).toEqual(['0', '1', '2']);
    const second = notes.find((n) => n.role === 'system' && n.text.includes('+ Searches: 1'));
    expect(second?.role === 'system' && second.text).toContain(
      '<skill name="shopping" active="true" changed="true">\n- Searches: 0\n',
    );
    expect(second?.role === 'system' && second.text).not.toContain('Cart: empty');
    // The last turn changed nothing the model reads: no note for it.
    expect(model.requests.at(-1)!.appendOnly!.items.at(-1)).toMatchObject({ role: 'user' });
  });

  test('agent-level text that re-renders is appended as a note; the system prompt stays as first sent', async () => {
    const App = ({ mood }: { mood: string }) => (
      <Agent>
        <Text>Mood: {mood}</Text>
        <Skill name="x" description="X">
          <Text>x</Text>
        </Skill>
      </Agent>
    );
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }], { appendOnly: true });
    const session = createSession(<App mood="calm" />, { model });
    await session.send('a');
    await session.rerender(<App mood="busy" />);
    await session.send('b');
    const last = model.requests[1].appendOnly!;
    expect(last.items.at(-1)).toMatchObject({ role: 'system' });
    expect(last.items.at(-1)?.role === 'system' && last.items.at(-1)).toMatchObject({
      text: expect.stringContaining('Mood: busy'),
    });
    expectAppendOnly(model.requests);
  });

  test('reasoning is recorded in order before the text and sent back as it came', async () => {
    const model = scriptedModel(
      [
        { reasoning: { text: 'read it', providerData: { signature: 'sig-1' } }, ...read('shopping') },
        { reasoning: 'done', text: 'ok' },
      ],
      { appendOnly: true },
    );
    const session = createSession(<ShopAgent />, { model });
    const turn = await session.send('hi');
    expect(turn.messages[1].content[0]).toEqual({
      type: 'reasoning',
      provider: 'scripted',
      model: 'scripted',
      text: 'read it',
      providerData: { signature: 'sig-1' },
    });
    const sent = model.requests[1].appendOnly!.items.find((i) => i.role === 'assistant');
    expect(sent).toEqual(turn.messages[1]);
  });

  test('the window moves only when a turn starts, and reasoning from before the move is not sent under the new prefix', async () => {
    const steps = Array.from({ length: 12 }, (_, i) => ({ reasoning: `thought ${i}`, text: `reply ${i}` }));
    const model = scriptedModel(steps, { appendOnly: true });
    const session = createSession(<ShopAgent />, { model, maxTranscriptMessages: 6 });
    for (let i = 0; i < 12; i++) await session.send(`message ${i}`);
    const starts = new Set<string>();
    for (let k = 1; k < model.requests.length; k++) {
      const prev = model.requests[k - 1].appendOnly!;
      const next = model.requests[k].appendOnly!;
      if (firstChange(prev, next) === null) continue;
      // A new prefix: its first message is a user message, and no reasoning recorded before it is sent.
      starts.add(textOf(next.items[0] as never));
      expect(next.items[0]).toMatchObject({ role: 'user' });
      const reasoning = next.items.filter(
        (i) => i.role === 'assistant' && i.content.some((p) => p.type === 'reasoning'),
      );
      expect(reasoning).toEqual([]);
    }
    expect(starts.size).toBeGreaterThan(0);
    // Between moves the prefix holds for several turns (the window jumps, it does not slide).
    expect(starts.size).toBeLessThan(6);
  });

  test('a session restored from a snapshot sends exactly what the writing process would have sent', async () => {
    const steps = [
      read('shopping'),
      use('add_to_cart', { sku: 'lamp' }),
      { text: 'added' },
      read('refunds'),
      { text: 'ok' },
    ];
    const a = scriptedModel(steps, { appendOnly: true });
    const original = createSession(<ShopAgent />, { model: a });
    await original.send('lamp');
    const snapshot = JSON.stringify(original.snapshot());
    await original.send('refunds');
    const b = scriptedModel(steps.slice(3), { appendOnly: true });
    const restored = restoreSession(<ShopAgent />, snapshot, { model: b });
    await restored.send('refunds');
    expect(JSON.stringify(b.requests.map((r) => r.appendOnly))).toBe(
      JSON.stringify(a.requests.slice(3).map((r) => r.appendOnly)),
    );
  });

  test('a model without appendOnly gets the classic layout and no append-only request', async () => {
    const model = scriptedModel([{ text: 'ok' }]);
    const session = createSession(<ShopAgent />, { model });
    await session.send('hi');
    // The append-only project makes every session append-only (SKILLTREE_APPEND_ONLY=1).
    const forced = process.env.SKILLTREE_APPEND_ONLY === '1';
    expect(model.requests[0].appendOnly === undefined).toBe(!forced);
    expect(model.requests[0].context).toContain('<current_context>');
  });
});
