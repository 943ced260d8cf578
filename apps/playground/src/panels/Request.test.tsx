import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeState } from '../../test/state.js';
import { Request } from './Request.js';

function renderRequest(overrides: Parameters<typeof makeState>[0] = {}) {
  const state = makeState(overrides);
  render(
    <Request
      request={state.request}
      requestError={state.requestError}
      transcript={state.transcript}
      windowStart={state.windowStart}
      config={state.view!.config}
      placed={state.placed}
    />,
  );
  return state;
}

describe('Request', () => {
  it('shows system, context, tools with their JSON Schema, and the messages', () => {
    renderRequest();
    expect(screen.getByTestId('request-system').textContent).toContain('- notes — Write and list notes');
    expect(screen.getByTestId('request-context').textContent).toContain('<skill name="notes" active="true">');
    const tools = screen.getByLabelText('Tools in the request');
    expect([...tools.querySelectorAll('[data-tool]')].map((li) => li.getAttribute('data-tool'))).toEqual([
      'read_skill',
      'add_note',
    ]);
    expect(tools.querySelector('[data-tool=add_note] .schema')!.textContent).toContain(
      '"required": [\n    "text"\n  ]',
    );
    expect(screen.getByText(/2 tools · 6 of 6 messages/)).toBeTruthy();
  });

  it('shows beside the request what each part of the tree costs, each loaded skill with its tools', () => {
    const state = makeState();
    const attribution = {
      total: 1200,
      instructions: 40,
      text: 0,
      tools: 0,
      catalog: 60,
      transcript: 500,
      machinery: 20,
      skills: { notes: { instructions: 30, text: 50, tools: 500, total: 580 } },
      counted: 'estimate' as const,
    };
    renderRequest({ request: { ...state.request!, attribution } });
    const table = screen.getByLabelText('What each part costs');
    const rows = [...table.querySelectorAll('tr')].map((tr) => tr.getAttribute('data-part'));
    // Parts the tree does not have (no agent text, no agent tools) are left out.
    expect(rows).toEqual(['instructions', 'catalog', 'skill:notes', 'transcript', 'machinery']);
    const notes = table.querySelector('[data-part="skill:notes"]')!;
    expect(notes.textContent).toContain('tools 500');
    expect(notes.textContent).toContain('580');
    expect(notes.textContent).toContain('48%');
    expect(screen.getByTestId('request-attribution').textContent).toContain('1,200 tokens');
  });

  it('shows no cost table for a request without attribution', () => {
    renderRequest();
    expect(screen.queryByTestId('request-attribution')).toBeNull();
  });

  it('draws the context on the message core placed it in', () => {
    renderRequest();
    const items = [...document.querySelectorAll('.req-msg')];
    const placed = items.findIndex((li) => li.querySelector('.placed-context'));
    expect(placed).toBe(4); // the add_note result, where the state says core placed it
    expect(items[placed].textContent).toContain('</current_context>');
  });

  it('follows where core placed it, counting from the window start', () => {
    const state = makeState();
    renderRequest({ windowStart: 2, placed: 0, request: { ...state.request!, messages: state.transcript.slice(2) } });
    const items = [...document.querySelectorAll('.req-msg')];
    expect(items.findIndex((li) => li.querySelector('.placed-context'))).toBe(2);
  });

  it('draws a new user message for the context when core added one', () => {
    renderRequest({ placed: 6 });
    const items = [...document.querySelectorAll('.req-msg')];
    expect(items).toHaveLength(7);
    expect(items[6].textContent).toContain('<current_context>');
  });

  it('puts the context into the system prompt when core placed it there', () => {
    const state = makeState();
    renderRequest({ request: { ...state.request!, contextPlacement: 'system' }, placed: 'system' });
    expect(screen.getByTestId('request-system').textContent).toContain('<current_context>');
    expect(document.querySelector('.placed-context')).toBeNull();
  });

  it('draws the window as a cut line over the full transcript', () => {
    const state = makeState();
    renderRequest({ windowStart: 3, request: { ...state.request!, messages: state.transcript.slice(3) } });
    const cut = screen.getByLabelText('window start');
    expect(cut.textContent).toContain('the model receives the 3 messages below (the 3 above are not sent)');
    expect(document.querySelectorAll('.req-msg.outside')).toHaveLength(3);
    expect(screen.getByText(/3 sent of 6 in the transcript; window: at most 60/)).toBeTruthy();
  });

  it('says why there is no request instead of rendering nothing', () => {
    renderRequest({ request: null, requestError: 'Duplicate tool name "add_note"' });
    expect(screen.getByRole('alert').textContent).toContain('Duplicate tool name "add_note"');
  });

  it("shows a reasoning model's append-only request: the first request's system prompt and tools, then items and notes", () => {
    const state = makeState();
    const request = state.request!;
    const [readSkill] = request.tools;
    renderRequest({
      request: {
        ...request,
        appendOnly: {
          system: 'You keep notes for the user.\n\n## Skills\n- notes — Write and list notes',
          tools: [readSkill],
          items: [
            ...state.transcript.slice(0, 3),
            {
              role: 'system',
              text: '<current_context>\nNotes: none\n</current_context>',
              addedTools: [request.tools[1]],
              removedTools: [],
            },
            ...state.transcript.slice(3),
          ],
        },
      },
    });
    const section = screen.getByTestId('request-append-only');
    expect(section.textContent).toContain('7 items');
    expect(screen.getByTestId('append-only-system').textContent).not.toContain('weather');
    expect(screen.getByTestId('append-only-tools').textContent).toBe('tools declared: read_skill');
    const items = [...screen.getByLabelText('Append-only items').querySelectorAll('li')];
    expect(items).toHaveLength(7);
    expect(items[3].hasAttribute('data-note')).toBe(true);
    expect(items[3].textContent).toContain('Notes: none');
    expect(items[3].textContent).toContain('+ tool add_note');
    // The assistant's reasoning shows as its text; the signature stays out of the page's text.
    expect(items[1].textContent).toContain('(reasoning) The notes skill can add notes.');
    expect(items[4].textContent).toContain('(reasoning) [hidden by the provider]');
    expect(section.textContent).not.toContain('c2lnbmVk');
    expect(items[2].textContent).toContain('contextChanged notes loaded');
  });

  it('shows no append-only section for a classic request', () => {
    renderRequest();
    expect(screen.queryByTestId('request-append-only')).toBeNull();
  });
});
