/**
 * Subagent runs from outside (a snapshot, a store record): each well-formed run, its transcript's
 * messages checked and upgraded as a session's are; anything else is left out.
 */
import { parseMessage } from '../transcript/message-parse.js';
import { cleanUsage } from '../turn/model-call.js';
import type { Message } from '../types/messages.js';
import type { SpawnCost, SubagentRun, SubagentStatus } from '../types/subagents.js';

const STATUSES: readonly SubagentStatus[] = ['running', 'waiting', 'done', 'failed', 'aborted'];
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/**
 * The runs of `raw` that are runs (each a fresh copy); a run whose transcript cannot be read is left
 * out. With `parseState` (a snapshot's parser), a waiting run keeps its state, checked by it; else it
 * is left out (a run shown, not resumed).
 */
export function parseRuns(raw: unknown, parseState?: (snapshot: unknown) => unknown): SubagentRun[] {
  if (!Array.isArray(raw)) return [];
  const out: SubagentRun[] = [];
  for (const r of raw) {
    if (!isObject(r) || typeof r.id !== 'string' || typeof r.name !== 'string' || typeof r.toolCallId !== 'string') {
      continue;
    }
    let transcript: Message[];
    try {
      transcript = Array.isArray(r.transcript)
        ? r.transcript.map((m, i) => parseMessage(m, `subagentRuns[${out.length}].transcript[${i}]`))
        : [];
    } catch {
      continue;
    }
    const run: SubagentRun = {
      id: r.id,
      name: r.name,
      toolCallId: r.toolCallId,
      depth: Math.max(1, count(r.depth)),
      context: r.context === 'fork' ? 'fork' : 'isolated',
      status: STATUSES.includes(r.status as SubagentStatus) ? (r.status as SubagentStatus) : 'failed',
      transcript,
      usage: cleanUsage(r.usage) ?? {},
    };
    if (typeof r.parentRunId === 'string') run.parentRunId = r.parentRunId;
    if (r.result !== undefined) run.result = JSON.parse(JSON.stringify(r.result));
    if (typeof r.error === 'string') run.error = r.error;
    if (parseState && run.status === 'waiting' && isObject(r.state)) {
      try {
        const fork = isObject(r.state.fork) ? JSON.parse(JSON.stringify(r.state.fork)) : undefined;
        run.state = { snapshot: parseState(r.state.snapshot), ...(fork ? { fork } : {}) };
      } catch {
        // A state that is not one: the run cannot go on, and answering it says so.
      }
    }
    if (isObject(r.spawn)) {
      const spawn: SpawnCost = {
        inputTokens: count(r.spawn.inputTokens),
        inheritedTokens: count(r.spawn.inheritedTokens),
        cachedTokens: count(r.spawn.cachedTokens),
      };
      run.spawn = spawn;
    }
    out.push(run);
  }
  return out;
}
