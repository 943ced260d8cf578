/**
 * The next request, built from the session state. The system prompt and tool specs are memoised on
 * the tree snapshot, the context on the snapshot and the loaded order, so a step's cost grows with
 * what changed, the window and the loaded skills, never with the whole transcript or catalog.
 */
import { readToolSpec, renderContext, renderSystem, sameSystem, toolSpec } from './prompt.js';
import { type ToolEntry, type TreeSnapshot, toolProblems } from './serialize.js';
import { AGENT, config, currentWindow, type SessionState, tree } from './state.js';
import type { ModelRequest, ToolSpec } from './types.js';

interface Memo {
  snap: TreeSnapshot | null;
  key: string;
  system: string;
  tools: ToolSpec[];
  toolsLoaded: readonly string[] | null;
  contextSnap: TreeSnapshot | null;
  contextLoaded: readonly string[] | null;
  context: string;
}

const memos = new WeakMap<SessionState, Memo>();

function memoOf(state: SessionState): Memo {
  let memo = memos.get(state);
  if (!memo) {
    memo = {
      snap: null,
      key: '',
      system: '',
      tools: [],
      toolsLoaded: null,
      contextSnap: null,
      contextLoaded: null,
      context: '',
    };
    memos.set(state, memo);
  }
  return memo;
}

/**
 * The tools the model is offered: the read tool (when there are skills), then the agent's and the
 * loaded skills' tools in tree order. Tree order depends only on which skills are loaded, so a
 * conversation that comes back to a set of skills sends the bytes of an earlier request again, which
 * provider prompt caches reuse; `pnpm bench` measured it against mount order (docs/cost.md).
 * Each name appears once (the first in tree order wins), never one that shadows the read tool or is
 * broken: tool names in a request are always unique, whatever the tree holds.
 */
export function offeredTools(snap: TreeSnapshot, readToolName: string): ToolSpec[] {
  const hasSkills = snap.skills.length > 0;
  const tools: ToolSpec[] = hasSkills ? [readToolSpec(readToolName)] : [];
  const offer = (tool: ToolEntry) => {
    if (snap.toolsByName.get(tool.name) !== tool) return;
    if (hasSkills && tool.name === readToolName) return;
    if (toolProblems(tool).length > 0) return;
    tools.push(toolSpec(tool));
  };
  for (const tool of snap.tools) offer(tool);
  return tools;
}

/** Why no request can be built now, or null. */
export function requestBlocker(state: SessionState): Error | null {
  if (state.crashed) {
    return new Error(
      `The agent crashed: ${state.crashed.message} No request is built from a partial tree; send() tries to render it again, or call session.rerender(element).`,
    );
  }
  if (state.suspended.has(AGENT)) {
    return new Error(
      'The agent is suspended: a component above every <Skill> is waiting for data (use() or lazy). Wrap it in its own <Suspense>, or wait with await session.settled().',
    );
  }
  return null;
}

/** The next request, exactly as the model will receive it. */
export function buildRequest(state: SessionState): ModelRequest {
  const blocker = requestBlocker(state);
  if (blocker) throw blocker;
  const snap = tree(state);
  const cfg = config(state);
  const memo = memoOf(state);
  const key = `${cfg.readToolName}\u0000${cfg.maxLoadedSkills}`;
  if (memo.snap !== snap || memo.key !== key) {
    if (memo.key !== key || !sameSystem(memo.snap, snap)) {
      memo.system = renderSystem(snap, cfg.readToolName, cfg.maxLoadedSkills);
    }
    memo.snap = snap;
    memo.key = key;
    memo.toolsLoaded = null;
  }
  if (memo.toolsLoaded !== state.loaded) {
    memo.tools = offeredTools(snap, cfg.readToolName);
    memo.toolsLoaded = state.loaded;
  }
  if (memo.contextSnap !== snap || memo.contextLoaded !== state.loaded) {
    memo.context = renderContext(snap, state.loaded);
    memo.contextSnap = snap;
    memo.contextLoaded = state.loaded;
  }
  return {
    system: memo.system,
    context: memo.context,
    messages: currentWindow(state).messages,
    tools: memo.tools,
    contextPlacement: cfg.contextPlacement,
  };
}
