/**
 * `startDevServer` in its own process (as `skilltree dev` runs it) on a temp copy of the fixture
 * agent: the SSE stream, the send endpoint, reloads that keep the conversation, errors.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevState } from '../src/commands/dev/protocol.js';
import { cliDir, fixtureCopy, readSse, type ServerProcess, type SseReader, startServerProcess } from './dev-helpers.js';
import { runCli } from './helpers/run-cli.js';

let fixture: ReturnType<typeof fixtureCopy>;
let server: ServerProcess;
let events: SseReader;

async function api(path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(new URL(path, server.url), {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const state = async (): Promise<DevState> => (await api('/api/state')).json;

function edit(file: string, change: (source: string) => string): void {
  const path = join(fixture.dir, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

beforeAll(async () => {
  fixture = fixtureCopy();
  server = await startServerProcess(fixture.module);
  events = await readSse(new URL('/api/events', server.url).href);
});

afterAll(async () => {
  events?.close();
  await server?.stop();
  fixture?.cleanup();
});

describe('skilltree dev server', () => {
  it('streams the state over server-sent events as soon as the page connects', async () => {
    const first = await events.waitFor((e) => e.event === 'state');
    const s = first.data as DevState;
    expect(s.model).toBe('scripted');
    expect(s.scripted).toBe(true);
    expect(s.view?.warnings).toEqual([]);
    expect(s.loadError).toBeNull();
    expect(s.view?.skills.map((k) => [k.name, k.state])).toEqual([
      ['notes', 'unloaded'],
      ['weather', 'unloaded'],
    ]);
    expect(s.request?.tools.map((t) => t.name)).toEqual(['read_skill', 'now']);
    // Core's view, as is: each tool with its skill and the component that rendered it.
    expect(s.view?.tools.map(({ name, owner, skill }) => ({ name, owner, skill }))).toEqual([
      { name: 'read_skill', owner: 'skilltree', skill: null },
      { name: 'now', owner: 'Clock', skill: null },
    ]);
    expect(s.demoMessages).toEqual(['Remember to buy milk', 'What are my notes?']);
  });

  it('runs a turn from the send endpoint and streams it', async () => {
    const { status, json } = await api('/api/send', { text: 'Remember to buy milk' });
    expect(status).toBe(200);
    expect(json).toEqual({ ok: true, text: 'Noted: buy milk.', steps: 3, waiting: [] });
    await events.waitFor(
      (e) => e.event === 'live' && e.data.type === 'text-delta' && e.data.text === 'Noted: buy milk.',
    );
    await events.waitFor(
      (e) => e.event === 'live' && e.data.type === 'tool-call' && e.data.toolCall.name === 'add_note',
    );
    const s = (await events.waitFor((e) => e.event === 'state' && e.data.transcript.length === 6 && !e.data.busy))
      .data as DevState;
    expect(s.view?.loadedSkills).toEqual(['notes']);
    expect(s.view?.skills.find((k) => k.name === 'notes')).toMatchObject({
      state: 'active',
      mounts: 1,
      owner: 'NotesAgent',
    });
    expect(s.view?.stores).toEqual({ notes: { notes: ['buy milk'] } });
    expect(s.request?.tools.map((t) => t.name)).toEqual(['read_skill', 'now', 'add_note']);
    expect(s.request?.context).toContain('Notes: buy milk');
    // Where core's placeContext puts the context: the last user-role message (the add_note result).
    expect(s.placed).toBe(4);
    expect(s.request?.messages[4]).toMatchObject({ role: 'tool', name: 'add_note' });
    expect(s.view?.sections.find((section) => section.skill === 'notes')?.lines).toEqual([
      { text: "Keep the user's notes short. Version 1.", kind: 'instructions', owner: 'Notes' },
      { text: 'Notes: buy milk', kind: 'text', owner: 'NoteList' },
    ]);
    expect(s.timeline.map((t) => `${t.turn}.${t.step}`)).toEqual(['1.1', '1.2', '1.3']);
    expect(s.timeline[1]).toMatchObject({ loaded: ['notes'], toolsAdded: ['add_note'], linesAdded: 2 });
    // Each step's reasoning, as its text; the transcript keeps the part where the model put it.
    expect(s.timeline.map((t) => t.reasoning)).toEqual([['The notes skill has the tool to add one.'], [], []]);
    expect(s.transcript[1].content[0]).toMatchObject({
      type: 'reasoning',
      text: 'The notes skill has the tool to add one.',
    });
    // Classic requests: loading notes added its tool (the tools come first), then the context moved
    // on to the newest tool result.
    expect(s.timeline.map((t) => [t.appendOnly, t.prefixChange?.path ?? null])).toEqual([
      [false, null],
      [false, 'tools.2'],
      [false, 'messages.2.content.2'],
    ]);
    expect(s.timeline[2].prefixBytes).toBeGreaterThan(0);
    expect(s.timeline[2].prefixBytes).toBeLessThan(s.timeline[2].bytes);
    // The scripted model reports estimated usage: the Cost view lists each call, marked as an
    // estimate, and prices none (no list price for "scripted").
    expect(s.cost.unreported).toBe(0);
    expect(s.cost.steps.map((c) => `${c.turn}.${c.step}`)).toEqual(['1.1', '1.2', '1.3']);
    expect(s.cost.steps.every((c) => c.usage.estimated === true && (c.usage.inputTokens ?? 0) > 0)).toBe(true);
    expect(s.cost.steps.map((c) => c.cost)).toEqual([null, null, null]);
    expect(s.cost.total.usage.estimated).toBe(true);
  });

  it("the state's request says what each part of the tree costs, for the page to show beside it", async () => {
    const s = await state();
    const attribution = s.request?.attribution;
    expect(attribution?.skills.notes?.tools).toBeGreaterThan(0);
    expect(attribution?.skills.notes?.instructions).toBeGreaterThan(0);
    expect(attribution?.catalog).toBeGreaterThan(0);
    expect(attribution?.transcript).toBeGreaterThan(0);
  });

  it('refuses an empty message', async () => {
    const { status, json } = await api('/api/send', { text: '  ' });
    expect(status).toBe(400);
    expect(json.error).toContain('text');
    expect((await api('/api/nope')).status).toBe(404);
  });

  it('reloads an edited skill and keeps transcript, loaded skills and stores', async () => {
    const before = await state();
    edit('notes.tsx', (source) =>
      source
        .replace('Version 1.', 'Version 2.')
        .replace(
          '      <NoteList />',
          '      <NoteList />\n      <Tool name="clear_notes" description="Remove every note" input={z.object({})} run={() => "cleared"} />',
        ),
    );
    const reloaded = (await events.waitFor((e) => e.event === 'state' && e.data.generation === 2)).data as DevState;
    expect(reloaded.transcript).toEqual(before.transcript);
    expect(reloaded.view?.loadedSkills).toEqual(['notes']);
    expect(reloaded.view?.stores).toEqual({ notes: { notes: ['buy milk'] } });
    expect(reloaded.request?.tools.map((t) => t.name)).toEqual(['read_skill', 'now', 'clear_notes', 'add_note']);
    expect(reloaded.request?.context).toContain("Keep the user's notes short. Version 2.");
    expect(reloaded.reloads).toHaveLength(1);
    expect(reloaded.reloads[0].files).toEqual(['notes.tsx']);
    expect(reloaded.reloads[0].changes).toEqual([
      'tool clear_notes added',
      "context + Keep the user's notes short. Version 2.",
      "context − Keep the user's notes short. Version 1.",
    ]);
    expect(reloaded.notes.at(-1)).toMatchObject({ kind: 'reload', after: 6 });
    expect(server.output()).toContain('reloaded notes.tsx');

    // The conversation goes on with the new code, and the model sees the kept store.
    const { json } = await api('/api/send', { text: 'What are my notes?' });
    expect(json).toEqual({ ok: true, text: 'Your notes: buy milk.', steps: 1, waiting: [] });
    expect((await state()).transcript).toHaveLength(8);
  });

  it('keeps running the last good code when an edit does not compile, and recovers', async () => {
    edit('notes.tsx', (source) => source.replace('export function Notes() {', 'export function Notes( {'));
    const broken = (await events.waitFor((e) => e.event === 'state' && e.data.loadError !== null)).data as DevState;
    expect(broken.loadError).toMatch(/notes\.tsx|Transform failed|Expected/);
    expect(broken.transcript).toHaveLength(8);
    expect(broken.request?.tools.map((t) => t.name)).toContain('clear_notes');
    expect(broken.notes.at(-1)?.kind).toBe('reload-error');
    expect(server.output()).toContain('reload failed');

    edit('notes.tsx', (source) => source.replace('export function Notes( {', 'export function Notes() {'));
    const fixed = (
      await events.waitFor((e) => e.event === 'state' && e.data.loadError === null && e.data.generation > 2)
    ).data as DevState;
    expect(fixed.transcript).toHaveLength(8);
    expect(fixed.view?.loadedSkills).toEqual(['notes']);
    expect(fixed.notes.at(-1)?.text).toContain('the error is fixed');
  });

  it('keeps running the last good code when the new tree throws while rendering, and recovers', async () => {
    edit('agent.tsx', (source) =>
      source.replace('function Clock() {', "function Clock() {\n  throw new Error('the clock broke');"),
    );
    const broken = (await events.waitFor((e) => e.event === 'state' && /the clock broke/.test(e.data.loadError ?? '')))
      .data as DevState;
    expect(broken.transcript).toHaveLength(8);
    expect(broken.view?.loadedSkills).toEqual(['notes']);
    expect(broken.requestError).toBeNull();
    expect(broken.request?.tools.map((t) => t.name)).toEqual(['read_skill', 'now', 'clear_notes', 'add_note']);
    expect(broken.notes.at(-1)?.text).toContain('Reload failed, still running the previous code: the clock broke');

    edit('agent.tsx', (source) => source.replace("\n  throw new Error('the clock broke');", ''));
    const fixed = (
      await events.waitFor(
        (e) => e.event === 'state' && e.data.loadError === null && e.data.generation > broken.generation,
      )
    ).data as DevState;
    expect(fixed.view?.loadedSkills).toEqual(['notes']);
    expect(fixed.view?.skills.find((k) => k.name === 'notes')?.mounts).toBe(1);
    expect(fixed.view?.stores).toEqual({ notes: { notes: ['buy milk'] } });
  });

  it('reports a model error in the state and the terminal, and the next send still works after a reset', async () => {
    expect((await api('/api/send', { text: 'Anything?' })).json).toMatchObject({ ok: true, text: 'Anything else?' });
    const failed = await api('/api/send', { text: 'And now?' });
    expect(failed.json.ok).toBe(false);
    expect(failed.json.error).toContain('scriptedModel ran out of steps');
    const s = await state();
    expect(s.error).toContain('ran out of steps');
    expect(s.notes.at(-1)).toMatchObject({ kind: 'error' });
    expect(server.output()).toContain('the turn failed: scriptedModel ran out of steps');

    const reset = (await api('/api/reset', {})).json as DevState;
    expect(reset.transcript).toEqual([]);
    expect(reset.view?.loadedSkills).toEqual([]);
    expect(reset.timeline).toEqual([]);
    expect(reset.error).toBeNull();
    expect((await api('/api/send', { text: 'Remember to buy milk' })).json).toMatchObject({ ok: true, steps: 3 });
  });

  it('serves the playground page (or a page that says how to build it)', async () => {
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toMatch(/skilltree playground|playground is not built/);
  });
});

describe('skilltree dev reloads the same session', () => {
  it('keeps store state (Stores panel), mount counts and the LRU order when the store definition is re-created', async () => {
    const copy = fixtureCopy();
    const lru = await startServerProcess(join(copy.dir, 'lru-agent.tsx'));
    const call = async (path: string, body?: unknown) =>
      (
        await fetch(new URL(path, lru.url), {
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
      ).json();
    try {
      expect(await call('/api/send', { text: 'Remember to buy milk' })).toMatchObject({ ok: true, text: 'Noted.' });
      const before = (await call('/api/state')) as DevState;
      const mounts = (s: DevState) =>
        Object.fromEntries(
          s.view!.skills.map((k) => [k.name, [k.state, k.mounts, s.view!.loadedSkills.indexOf(k.name)]]),
        );
      expect(mounts(before)).toEqual({ notes: ['active', 2, 0], weather: ['unloaded', 1, -1] });
      expect(before.view?.stores).toEqual({ notes: { notes: ['buy milk'] } });

      // A new initializer: the reload re-creates the definition; the store is found by its name.
      const store = join(copy.dir, 'store.ts');
      writeFileSync(store, readFileSync(store, 'utf8').replace('notes: [] as string[]', 'notes: ["seed"] as string[]'));
      // Until the reload is done, however long a busy machine takes (the test's timeout bounds it).
      let after: DevState | undefined;
      while (after?.generation !== 2) {
        await new Promise((done) => setTimeout(done, 100));
        after = (await call('/api/state')) as DevState;
      }
      expect(after?.generation).toBe(2);
      expect(after?.loadError).toBeNull();
      expect(after?.reloads[0].files).toEqual(['store.ts']);
      expect(after?.view?.stores).toEqual({ notes: { notes: ['buy milk'] } });
      expect(mounts(after!)).toEqual({ notes: ['active', 2, 0], weather: ['unloaded', 1, -1] });
      expect(after?.view?.loadedSkills).toEqual(['notes']);
      expect(after?.transcript).toEqual(before.transcript);

      // The new code's tool writes the same store, and the panel and the model both see it.
      expect(await call('/api/send', { text: 'Also eggs' })).toMatchObject({
        ok: true,
        text: 'Your notes: buy milk, eggs.',
      });
      expect(((await call('/api/state')) as DevState).view?.stores).toEqual({ notes: { notes: ['buy milk', 'eggs'] } });
    } finally {
      await lru.stop();
      copy.cleanup();
    }
  });
});

describe('skilltree dev errors', () => {
  it('loads modules with the loader chat and run use: the same checks, the same message', async () => {
    const module = join(cliDir, 'test', 'fixtures', 'no-default.tsx');
    const run = await runCli(['run', module, '-m', 'hi']);
    const said = /has no default export to run\..*/.exec(run.stderr)?.[0];
    expect(said).toContain('(it exports: Helper)');
    const dev = await startServerProcess(module);
    try {
      const state = (await (await fetch(new URL('/api/state', dev.url))).json()) as DevState;
      expect(state.loadError).toBe(`${module} ${said}`);
    } finally {
      await dev.stop();
    }
  });

  it('says which port is taken and what to do', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as { port: number }).port;
    const copy = fixtureCopy();
    try {
      await expect(startServerProcess(copy.module, port)).rejects.toThrow(
        `Port ${port} on 127.0.0.1 is already in use`,
      );
    } finally {
      blocker.close();
      copy.cleanup();
    }
  });
});
