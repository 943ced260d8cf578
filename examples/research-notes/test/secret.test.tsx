import { inspect } from 'node:util';
import { type ModelRequest, restoreSession, type ScriptedModel, type Session, textOf } from '@skilltree/core';
import { act, renderAgent, withoutActEnvironment } from '@skilltree/testing';
import { describe, expect, test } from 'vitest';
import { demo } from '../agent.js';
import { notebook } from '../src/notebook.js';
import { ResearchNotes } from '../src/research-agent.js';
import { Credentials, vault } from '../src/vault.js';
import { createMemoryWiki } from '../src/wiki.js';

const TOKEN = 'wk_live_7c1e0b9a44d2f6e8';

/** Every string a request carries: system, context, every message, every tool spec. */
function requestText(request: ModelRequest): string {
  return [request.system, request.context, JSON.stringify(request.messages), JSON.stringify(request.tools)].join('\n');
}

describe('the wiki token never reaches the model', () => {
  test('across the whole demo conversation: no request, message or event carries it', async () => {
    const wiki = createMemoryWiki();
    const model = demo.model() as ScriptedModel;
    const agent = renderAgent(<ResearchNotes wiki={wiki} />, { model });
    // The app sets its user's token from code, the way the vault's docs say.
    agent.session.store(vault).setState({ credentials: new Credentials(TOKEN) });
    const events: string[] = [];
    agent.session.on('event', (event) => events.push(JSON.stringify(event)));

    for (const message of demo.messages) await agent.say(message);
    expect(model.remaining).toBe(0);

    // The token was used: the wiki received it...
    const page = wiki.pages.get('sleep-and-memory');
    expect(page?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(page?.body.split('\n')).toHaveLength(7);

    // ...and it is nowhere the model can see: every request the model received, in every part,
    expect(model.requests.length).toBeGreaterThan(10);
    for (const request of model.requests) {
      const text = requestText(request);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(TOKEN.slice(8)); // nor its random part
    }
    // the next request, the whole transcript, every event, and the session snapshot.
    expect(requestText(agent.session.request())).not.toContain(TOKEN);
    expect(JSON.stringify(agent.transcript)).not.toContain(TOKEN);
    expect(events.length).toBeGreaterThan(50);
    for (const event of events) expect(event).not.toContain(TOKEN);
    expect(JSON.stringify(agent.session.snapshot())).not.toContain(TOKEN);
    // What the model does see: that the wiki is connected, and where the page went.
    expect(model.requests.some((r) => r.context.includes('Wiki: connected.'))).toBe(true);
    expect(JSON.stringify(agent.transcript)).toContain('https://wiki.example.com/research/sleep-and-memory');
  });

  test('an error that echoes the token is redacted before the model reads it', async () => {
    const agent = renderAgent(<ResearchNotes />);
    agent.session.store(vault).setState({ credentials: new Credentials('not-a-wiki-token') });
    agent.session.store(notebook).setState({ notes: [{ id: 'N-1', topic: 'naps', text: 'Short naps help.' }] });
    await agent.callTool('read_skill', { name: 'publish' });
    const result = await agent.callTool('publish_notes', { title: 'Naps' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Tool "publish_notes" failed: The wiki refused: 401 Unauthorized: invalid authorization "Bearer [redacted]"',
    );
    expect(JSON.stringify(agent.transcript)).not.toContain('not-a-wiki-token');
  });

  test('Credentials print as [redacted] however they are turned into text', () => {
    const credentials = new Credentials(TOKEN);
    expect(JSON.stringify({ credentials })).toBe('{"credentials":"[redacted]"}');
    expect(`${credentials}`).toBe('[redacted]');
    expect(inspect({ credentials })).toBe('{ credentials: Credentials([redacted]) }');
    expect(credentials.hint).toBe('wk_… (24 characters)');
    expect(credentials.use((token) => token.length)).toBe(24);
  });

  test('without a token, publish_notes is not offered and the skill says why', async () => {
    const agent = renderAgent(<ResearchNotes />);
    agent.session.store(vault).setState({ credentials: null });
    agent.session.store(notebook).setState({ notes: [{ id: 'N-1', topic: 'naps', text: 'Short naps help.' }] });
    await agent.callTool('read_skill', { name: 'publish' });
    expect(agent.getByText('Wiki: not connected (the app has not configured a token).').skill).toBe('publish');
    expect(agent.queryByTool('publish_notes')).toBeNull();
  });

  test('a snapshot holds [redacted], so a restored session does not get the token back', async () => {
    const agent = renderAgent(<ResearchNotes />);
    agent.session.store(vault).setState({ credentials: new Credentials(TOKEN) });
    const snapshot = agent.session.snapshot();
    expect(snapshot.stores['research-vault']).toEqual({ credentials: '[redacted]' });

    let restored!: Session;
    act(() => {
      restored = restoreSession(<ResearchNotes />, JSON.parse(JSON.stringify(snapshot)));
    });
    try {
      // Core's session outside renderAgent: run its async work outside act, as renderAgent does.
      await withoutActEnvironment(() => restored.readSkill('publish'));
      expect(restored.request().context).toContain('Wiki: not connected');
      // The app hands the token over again, from code.
      act(() => restored.store(vault).setState({ credentials: new Credentials(TOKEN) }));
      expect(restored.request().context).toContain('Wiki: connected.');
    } finally {
      act(() => restored.dispose());
    }
  });
});
