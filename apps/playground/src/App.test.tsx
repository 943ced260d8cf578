import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeState, makeView } from '../test/state.js';
import { App, Playground } from './App.js';
import type { DevServer } from './useDevServer.js';

/** A stand-in for the browser's EventSource that the test drives. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  listeners = new Map<string, ((event: any) => void)[]>();
  closed = false;
  constructor(public url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, fn: (event: any) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn]);
  }
  emit(type: string, data?: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
  close() {
    this.closed = true;
  }
}

function server(overrides: Partial<DevServer> = {}): DevServer {
  return {
    state: makeState(),
    connection: 'open',
    streaming: null,
    sending: false,
    actionError: null,
    send: vi.fn(async () => ({})),
    answer: vi.fn(async () => {}),
    reset: vi.fn(async () => {}),
    dismissError: vi.fn(),
    ...overrides,
  };
}

describe('Playground', () => {
  it('shows every panel', () => {
    render(<Playground server={server()} />);
    for (const name of ['Chat', 'Request', 'Skills', 'Stores', 'Timeline', 'Cost', 'Tree']) {
      expect(screen.getByRole('heading', { name })).toBeTruthy();
    }
    expect(screen.getByText('live')).toBeTruthy();
  });

  it('shows module, model and turn errors as banners, never a blank page', () => {
    render(
      <Playground
        server={server({
          state: makeState({ error: 'anthropic: 401 invalid x-api-key', loadError: 'SyntaxError: Unexpected token' }),
          connection: 'lost',
        })}
      />,
    );
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts.some((t) => t?.includes('Lost the connection'))).toBe(true);
    expect(alerts.some((t) => t?.includes('Agent error: SyntaxError: Unexpected token'))).toBe(true);
    expect(alerts.some((t) => t?.includes('Model error: anthropic: 401 invalid x-api-key'))).toBe(true);
  });

  it('says when no model is configured', () => {
    render(<Playground server={server({ state: makeState({ model: 'none' }) })} />);
    expect(screen.getByText(/No model: pass/)).toBeTruthy();
  });

  it("shows the session's warnings above the panels", () => {
    render(
      <Playground
        server={server({
          state: makeState({
            view: makeView({
              warnings: [{ message: 'folder skill "pdf" has no description', source: 'agent-skills' }],
            }),
          }),
        })}
      />,
    );
    expect(screen.getByRole('status', { name: 'Session warnings' }).textContent).toContain(
      'agent-skills folder skill "pdf" has no description',
    );
  });

  it('announces a reload and what changed', () => {
    const state = makeState({
      generation: 2,
      reloads: [
        { generation: 2, at: 5, files: ['notes.tsx'], changes: ['tool clear_notes added'], transcriptLength: 6 },
      ],
    });
    render(<Playground server={server({ state })} />);
    const banner = screen.getByRole('status');
    expect(banner.textContent).toContain('Reloaded notes.tsx — conversation kept (6 messages): tool clear_notes added');
    fireEvent.click(screen.getByRole('button', { name: '×' }));
    expect(screen.queryByText(/Reloaded notes.tsx —/)).toBeNull();
  });

  it('explains an unreachable server before any state arrived', () => {
    render(<Playground server={server({ state: null, connection: 'lost' })} />);
    expect(screen.getByText(/Cannot reach/)).toBeTruthy();
  });
});

describe('App over server-sent events', () => {
  beforeEach(() => {
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('renders the state the server pushes and the text it streams', async () => {
    render(<App />);
    expect(screen.getByText('Connecting to skilltree dev…')).toBeTruthy();
    const source = FakeEventSource.last!;
    expect(source.url).toBe('/api/events');
    const state = makeState({ busy: true });
    act(() => source.emit('state', state));
    const chat = () => within(document.querySelector<HTMLElement>('[data-panel=chat]')!);
    expect(chat().getByText('Noted: buy milk.')).toBeTruthy();
    act(() => source.emit('live', { type: 'reasoning-delta', text: 'Read the', index: state.transcript.length }));
    act(() => source.emit('live', { type: 'reasoning-delta', text: ' notes.', index: state.transcript.length }));
    act(() => source.emit('live', { type: 'text-delta', text: 'Your notes', index: state.transcript.length }));
    act(() => source.emit('live', { type: 'text-delta', text: ': buy milk.', index: state.transcript.length }));
    expect(chat().getByText('Your notes: buy milk.').closest('.msg-streaming')).toBeTruthy();
    expect(chat().getByText('Read the notes.').closest('.msg-streaming [data-reasoning]')).toBeTruthy();
    // Once the message is in the transcript, the streamed copy goes away.
    act(() =>
      source.emit('state', {
        ...state,
        busy: false,
        transcript: [
          ...state.transcript,
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', provider: 'anthropic', text: 'Read the notes.' },
              { type: 'text', text: 'Your notes: buy milk.' },
            ],
          },
        ],
      }),
    );
    expect(chat().getAllByText('Your notes: buy milk.')).toHaveLength(1);
    expect(chat().getAllByText('Read the notes.')).toHaveLength(1);
    expect(document.querySelector('.msg-streaming')).toBeNull();
    act(() => source.emit('error'));
    expect(screen.getByText('disconnected')).toBeTruthy();
  });

  it('posts messages and shows a refused send', async () => {
    const fetchMock = vi.fn(
      async () => new Response(JSON.stringify({ ok: false, error: 'A turn is running' }), { status: 409 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<App />);
    act(() => FakeEventSource.last!.emit('state', makeState()));
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'hi' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/send',
      expect.objectContaining({ method: 'POST', body: '{"text":"hi"}' }),
    );
    expect(await screen.findByText(/A turn is running/)).toBeTruthy();
  });
});
