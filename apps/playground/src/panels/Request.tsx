/**
 * Request: the next request exactly as the model will receive it — system prompt,
 * `<current_context>` (and where it is placed), tools with their JSON Schema, and the messages:
 * the whole transcript with a cut line where the window starts. For a model that binds its
 * reasoning to the prefix (`request.appendOnly`), the append-only request it receives instead:
 * the first request's system prompt and tools, then the transcript with the notes core appended.
 * Above them, what each part of the tree costs in the request (`request.attribution`).
 */
import { textOf } from '@skilltree/core';
import { Fragment, type ReactNode } from 'react';
import { formatBytes, json } from '../format.js';
import type { AppendOnlyRequest, Message, ModelRequest, SessionConfig } from '../protocol.js';
import { Attribution } from './Attribution.js';
import { Panel } from './Panel.js';

export interface RequestProps {
  request: ModelRequest | null;
  requestError: string | null;
  transcript: Message[];
  windowStart: number;
  config: SessionConfig | null;
  /** Where core placed the context: `'system'`, or its message's index in `request.messages` (see DevState). */
  placed: 'system' | number | null;
}

/** A message as the model reads it: its text (with its contextChanged lines), reasoning and calls. */
function messageText(message: Message): string {
  if (message.role === 'assistant') {
    // Reasoning goes back to the provider that produced it; the page shows its readable text only.
    const reasoning = message.content.flatMap((part) =>
      part.type === 'reasoning' ? [`(reasoning) ${part.text || '[hidden by the provider]'}`] : [],
    );
    const calls = (message.toolCalls ?? []).map((c) => `→ ${c.name}(${JSON.stringify(c.input)}) [${c.id}]`);
    return [...reasoning, textOf(message), ...calls].filter(Boolean).join('\n');
  }
  if (message.role === 'tool') {
    const kind = message.errorKind ? ` (error: ${message.errorKind})` : message.isError ? ' (error)' : '';
    return `[${message.toolCallId}]${kind}\n${textOf(message)}`;
  }
  return textOf(message);
}

/** The append-only request: the prefix fixed by the conversation's first request, then its items. */
function AppendOnly({ request, appendOnly }: { request: ModelRequest; appendOnly: AppendOnlyRequest }) {
  const tools = appendOnly.tools.map((tool) => tool.name);
  const sameTools = tools.join('\n') === request.tools.map((tool) => tool.name).join('\n');
  return (
    <details open className="req-section" data-testid="request-append-only">
      <summary>
        Append-only{' '}
        <span className="muted">
          ({appendOnly.items.length} items; the model binds its reasoning to the exact prefix, so it receives the
          conversation's first system prompt and tools, then every message with notes appended where something changed)
        </span>
      </summary>
      {appendOnly.system !== request.system ? (
        <pre className="prompt" data-testid="append-only-system">
          {appendOnly.system}
        </pre>
      ) : null}
      {sameTools ? null : (
        <p className="muted small" data-testid="append-only-tools">
          tools declared: {tools.join(', ') || 'none'}
        </p>
      )}
      <ol className="req-messages" start={0} aria-label="Append-only items">
        {appendOnly.items.map((item, i) =>
          item.role === 'system' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items only grow, an index is the identity
            <li key={i} className="req-msg req-note" data-note>
              <span className="role">note</span>
              <pre>
                {[
                  item.text,
                  ...item.addedTools.map((tool) => `+ tool ${tool.name}`),
                  ...item.removedTools.map((name) => `− tool ${name}`),
                ]
                  .filter(Boolean)
                  .join('\n')}
              </pre>
            </li>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items only grow, an index is the identity
            <li key={i} className={`req-msg req-${item.role}`}>
              <span className="role">{item.role === 'tool' ? `tool ${item.name}` : item.role}</span>
              <pre>{messageText(item)}</pre>
            </li>
          ),
        )}
      </ol>
    </details>
  );
}

/** One open section of the request: its title, a muted note beside it, and what it holds. */
function Section({ title, note, children }: { title: string; note: string; children: ReactNode }) {
  return (
    <details open className="req-section">
      <summary>
        {title} <span className="muted">{note}</span>
      </summary>
      {children}
    </details>
  );
}

export function Request({ request, requestError, transcript, windowStart, config, placed }: RequestProps) {
  if (!request) {
    return (
      <Panel id="request" title="Request">
        <div className="error-box" role="alert">
          {requestError ? `No request can be built: ${requestError}` : 'The agent is not loaded.'}
        </div>
      </Panel>
    );
  }
  const size = new TextEncoder().encode(
    JSON.stringify(
      request.appendOnly ?? {
        system: request.system,
        context: request.context,
        tools: request.tools,
        messages: request.messages,
      },
    ),
  ).length;
  // The transcript index of the message that carries the context (the transcript's length: a new
  // user message after it), or -1 when it goes into the system prompt.
  const target = typeof placed === 'number' ? windowStart + placed : -1;
  const sent = transcript.length - windowStart;
  return (
    <Panel
      id="request"
      title="Request"
      extra={
        <span className="muted">
          {request.tools.length} tools · {sent} of {transcript.length} messages · {formatBytes(size)}
        </span>
      }
    >
      <Attribution attribution={request.attribution} />
      {request.appendOnly ? <AppendOnly request={request} appendOnly={request.appendOnly} /> : null}
      <Section title="System" note={`(${request.system.length} chars)`}>
        <pre className="prompt" data-testid="request-system">
          {request.system}
          {placed === 'system' ? `\n\n${request.context}` : ''}
        </pre>
      </Section>
      <Section
        title="Context"
        note={
          placed === 'system'
            ? '(appended to the system prompt)'
            : '(appended to the last user-role message; the system prompt and older messages stay byte-identical)'
        }
      >
        <pre className="prompt context" data-testid="request-context">
          {request.context}
        </pre>
      </Section>
      <Section title="Tools" note={`(${request.tools.length})`}>
        <ul className="tool-list" aria-label="Tools in the request">
          {request.tools.map((tool) => (
            <li key={tool.name} data-tool={tool.name}>
              <details>
                <summary>
                  <code className="tool-name">{tool.name}</code> <span className="muted">{tool.description}</span>
                </summary>
                <pre className="schema">{json(tool.inputSchema)}</pre>
              </details>
            </li>
          ))}
        </ul>
      </Section>
      <Section
        title="Messages"
        note={`(${sent} sent of ${transcript.length} in the transcript${config ? `; window: at most ${config.maxTranscriptMessages}, starting at a user message` : ''})`}
      >
        <ol className="req-messages" start={0}>
          {transcript.map((message, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the transcript only grows, its index is the identity
            <Fragment key={i}>
              {i === windowStart ? (
                <li className="window-cut" aria-label="window start">
                  ✂ window: the model receives the {sent} messages below
                  {windowStart > 0 ? ` (the ${windowStart} above are not sent)` : ''}
                </li>
              ) : null}
              <li className={`req-msg req-${message.role}${i < windowStart ? ' outside' : ''}`}>
                <span className="role">{message.role === 'tool' ? `tool ${message.name}` : message.role}</span>
                <pre>{messageText(message)}</pre>
                {i === target ? <pre className="placed-context">{`\n\n${request.context}`}</pre> : null}
              </li>
            </Fragment>
          ))}
          {target === transcript.length ? (
            <li className="req-msg req-user">
              <span className="role">user</span>
              <pre className="placed-context">{request.context}</pre>
            </li>
          ) : null}
        </ol>
      </Section>
    </Panel>
  );
}
