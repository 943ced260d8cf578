/**
 * The page's connection to `skilltree dev`: the state (pushed over server-sent events), the text
 * being streamed, and the actions (send with files, answer waiting calls, reset).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type PendingFile, toSendFile } from './panels/Attachments.js';
import type { DevState, LiveEvent, ToolAnswer, TurnReply } from './protocol.js';

/** How a send ended for the composer: `refused` is core's reason when a file was refused (nothing sent). */
export interface SendOutcome {
  refused?: string;
}

export type Connection = 'connecting' | 'open' | 'lost';

export interface Streaming {
  text: string;
  /** Readable reasoning streamed so far in this step (its text only). */
  reasoning: string;
  /** Transcript index the streamed assistant message will take. */
  index: number;
}

export interface DevServer {
  state: DevState | null;
  connection: Connection;
  streaming: Streaming | null;
  /** Pending tool calls of the running step, shown until their results arrive. */
  sending: boolean;
  /** An error of the last action (send refused, server unreachable). */
  actionError: string | null;
  send(text: string, files?: PendingFile[]): Promise<SendOutcome>;
  /** Answers waiting calls (approve, deny, a client tool's result); the turn goes on. */
  answer(answers: ToolAnswer[]): Promise<void>;
  reset(): Promise<void>;
  dismissError(): void;
}

/** An error the dev server answered with; `code` is core's when it refused a file or an answer. */
class ServerError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

async function post(base: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data: any = null;
  try {
    data = await res.json();
  } catch {
    throw new Error(`The dev server answered ${res.status} without JSON.`);
  }
  if (!res.ok && data?.error) throw new ServerError(data.error, typeof data.code === 'string' ? data.code : undefined);
  if (!res.ok) throw new Error(`The dev server answered ${res.status}.`);
  return data;
}

export function useDevServer(base = ''): DevServer {
  const [state, setState] = useState<DevState | null>(null);
  const [connection, setConnection] = useState<Connection>('connecting');
  const [streaming, setStreaming] = useState<Streaming | null>(null);
  const [sending, setSending] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    const source = new EventSource(`${base}/api/events`);
    source.addEventListener('open', () => setConnection('open'));
    source.addEventListener('error', () => setConnection('lost'));
    source.addEventListener('state', (event) => {
      setConnection('open');
      try {
        const next = JSON.parse((event as MessageEvent).data) as DevState;
        setState(next);
        setStreaming((s) => (s && next.transcript.length > s.index ? null : s));
      } catch (error) {
        setActionError(`The dev server sent a state the page cannot read: ${(error as Error).message}`);
      }
    });
    source.addEventListener('live', (event) => {
      const live = JSON.parse((event as MessageEvent).data) as LiveEvent;
      if (live.type === 'text-delta' || live.type === 'reasoning-delta') {
        const key = live.type === 'text-delta' ? 'text' : 'reasoning';
        setStreaming((s) => {
          const current = s && s.index === live.index ? s : { text: '', reasoning: '', index: live.index };
          return { ...current, [key]: current[key] + live.text };
        });
      } else if (live.type === 'turn-start' || live.type === 'turn-end') {
        setStreaming(null);
      }
    });
    return () => {
      mounted.current = false;
      source.close();
    };
  }, [base]);

  const send = useCallback(
    async (text: string, files: PendingFile[] = []): Promise<SendOutcome> => {
      setSending(true);
      setActionError(null);
      try {
        const body = files.length > 0 ? { text, files: files.map(toSendFile) } : { text };
        const result = (await post(base, '/api/send', body)) as TurnReply;
        // Model errors are shown from the state (error + a note in the chat); others here.
        if (result && result.ok === false && !result.error) setActionError('The turn failed.');
        return {};
      } catch (error) {
        // A refused file: the composer shows why and gets the message back; nothing was sent.
        if (error instanceof ServerError && error.code && files.length > 0 && error.code !== 'busy') {
          return { refused: error.message };
        }
        if (mounted.current) setActionError((error as Error).message);
        return {};
      } finally {
        if (mounted.current) setSending(false);
      }
    },
    [base],
  );

  const answer = useCallback(
    async (answers: ToolAnswer[]) => {
      setSending(true);
      setActionError(null);
      try {
        await post(base, '/api/answer', { answers });
      } catch (error) {
        if (mounted.current) setActionError((error as Error).message);
      } finally {
        if (mounted.current) setSending(false);
      }
    },
    [base],
  );

  const reset = useCallback(async () => {
    setActionError(null);
    try {
      setState(await post(base, '/api/reset'));
      setStreaming(null);
    } catch (error) {
      if (mounted.current) setActionError((error as Error).message);
    }
  }, [base]);

  return {
    state,
    connection,
    streaming,
    sending,
    actionError,
    send,
    answer,
    reset,
    dismissError: () => setActionError(null),
  };
}
