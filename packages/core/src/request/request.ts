/**
 * The next request, built from the session state. The system prompt and tool specs are memoised on
 * the tree snapshot, the context on the snapshot and the loaded order, so a step's cost grows with
 * what changed, the window and the loaded skills, never with the whole transcript or catalog.
 */

import { describedWarning, describeUnread } from '../files/model-accepts.js';
import { searching, searchToolSpec } from '../host/catalog.js';
import { isOffered, readToolSpec, renderContext, renderSystem, sameSystem, toolSpec } from '../host/prompt.js';
import type { ToolEntry, TreeSnapshot } from '../host/serialize.js';
import { foldBefore } from '../lifecycle/log.js';
import { config, currentWindow } from '../state/config.js';
import { warn } from '../state/events.js';
import { isBusy, isSuspended, loadedSkills, mountCount } from '../state/reads.js';
import { runSelf } from '../state/runs.js';
import { AGENT, type SessionState, tree } from '../state/state.js';
import type { Message } from '../types/messages.js';
import type {
  AppendOnlyRequest,
  ModelRequest,
  RequestAttribution,
  RequestLifecycle,
  SentLogData,
  ToolSpec,
} from '../types/request.js';
import { isAppendOnly, planAppendOnly } from './append-only.js';
import { type AttributionInputs, attributeRequest } from './attribution.js';
import { buildLifecycle, type LifecycleInputs, lifecycleProblems } from './deltas.js';
import { runRequest } from './run-request.js';

interface Memo {
  snap: TreeSnapshot | null;
  key: string;
  system: string;
  tools: ToolSpec[];
  toolsLoaded: readonly string[] | null;
  /** The snapshot tool list `tools` was made from (kept by a snapshot whose commit changed no tool), and whether it had skills. */
  toolsOf: readonly ToolEntry[] | null;
  toolsWithSkills: number;
  contextSnap: TreeSnapshot | null;
  contextLoaded: readonly string[] | null;
  context: string;
  /** The read tool and the agent's tools, for the lifecycle: made when one is first read, for `prefixSnap`. */
  prefixTools: ToolSpec[];
  prefixSnap: TreeSnapshot | null;
  prefixRead: string;
  /** The last lifecycle built and what it was built from. */
  lifecycle: { inputs: LifecycleInputs; mountsKey: string; value: RequestLifecycle } | null;
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
      toolsOf: null,
      toolsWithSkills: 0,
      contextSnap: null,
      contextLoaded: null,
      context: '',
      prefixTools: [],
      prefixSnap: null,
      prefixRead: '',
      lifecycle: null,
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
  const tools: ToolSpec[] = snap.skillCount > 0 ? [readToolSpec(readToolName)] : [];
  if (searching(snap)) tools.push(searchToolSpec());
  for (const tool of snap.tools) if (isOffered(snap, tool, readToolName)) tools.push(toolSpec(tool));
  return tools;
}

/**
 * The tools the lifecycle never changes: the read tool and the agent's own tools. Made when a
 * lifecycle is first read (adapters without deltas never ask), once per tree snapshot.
 */
function prefixTools(memo: Memo, snap: TreeSnapshot, readToolName: string): ToolSpec[] {
  if (memo.prefixSnap === snap && memo.prefixRead === readToolName) return memo.prefixTools;
  const tools: ToolSpec[] = [readToolSpec(readToolName)];
  if (searching(snap)) tools.push(searchToolSpec());
  for (const tool of snap.tools)
    if (tool.skill === null && isOffered(snap, tool, readToolName)) tools.push(toolSpec(tool));
  memo.prefixTools = tools;
  memo.prefixSnap = snap;
  memo.prefixRead = readToolName;
  return tools;
}

const CHECK_DELTAS = globalThis.process?.env?.SKILLTREE_CHECK_DELTAS === '1';

const lifecycles = new WeakMap<object, () => RequestLifecycle>();
/** What each request's attribution is counted from, then the attribution itself once read. */
const attributions = new WeakMap<object, AttributionInputs & { counted?: RequestAttribution }>();

/** The prototype of every built request: an `Object` whose `attribution` is counted on first read. */
const ATTRIBUTED: object = Object.create(Object.prototype, {
  attribution: {
    enumerable: false,
    get(this: object) {
      const inputs = attributions.get(this);
      if (!inputs) return undefined;
      inputs.counted ??= attributeRequest(this as ModelRequest, inputs);
      return inputs.counted;
    },
  },
});

/** The prototype of a request with skills: its `lifecycle` is built on first read. */
const WITH_LIFECYCLE: object = Object.create(ATTRIBUTED, {
  lifecycle: {
    enumerable: false,
    get(this: object) {
      return lifecycles.get(this)?.();
    },
  },
});

/** Why no request can be built now, or null. */
export function requestBlocker(state: SessionState): Error | null {
  if (state.crashed) {
    return new Error(
      `The agent crashed: ${state.crashed.message} No request is built from a partial tree; send() tries to render it again, or call session.rerender(element).`,
    );
  }
  if (isSuspended(state, AGENT)) {
    return new Error(
      'The agent is suspended: a component above every <Skill> is waiting for data (use() or lazy). Wrap it in its own <Suspense>, or wait with await session.settled().',
    );
  }
  return null;
}

/** Append-only plans by request: what the log becomes once the request is sent. */
const plans = new WeakMap<ModelRequest, SentLogData>();

/** The request each session sent last (a fork of a run starts from it). */
const lastSent = new WeakMap<SessionState, ModelRequest>();

/** The request the session sent last in this process, or undefined. */
export function lastRequestOf(state: SessionState): ModelRequest | undefined {
  return lastSent.get(state);
}

/**
 * Lets go of what the session keeps to build its next request quickly (the system prompt, offered
 * tools and context made from the last tree) and, with `lastToo`, of the request it sent last: a
 * chat waiting between turns with no call waiting needs neither (a fork starts from the parent's
 * last request of the running turn; an approved call's fork may start from the last turn's, so the
 * caller keeps it while calls wait). The next request makes them again, equal in content.
 */
export function forgetBuilt(state: SessionState, lastToo: boolean): void {
  memos.delete(state);
  if (lastToo) lastSent.delete(state);
}

/** Requests that describe files their model does not read, with the warning said when one is sent. */
const describing = new WeakMap<ModelRequest, string>();

/**
 * Records that `request` was sent: a model with `appendOnly` then gets the next request as this one
 * plus what is new. Called when the request goes out, so that one never sent (a budget refused it)
 * leaves no trace.
 */
export function recordSent(state: SessionState, request: ModelRequest): void {
  lastSent.set(state, request);
  const next = plans.get(request);
  if (next) state.window.sent = next;
  // Said once per session: `warn` reports each distinct message once.
  const warning = describing.get(request);
  if (warning) warn(state, warning, 'skilltree');
}

/**
 * The next request, exactly as the model will receive it. `turnStart`: the first request of a turn
 * (an append-only window may move only then); by default, whether no turn is running.
 */
export function buildRequest(state: SessionState, turnStart = !isBusy(state)): ModelRequest {
  const model = state.options.model;
  const built = buildClassic(state, turnStart);
  const { described } = built;
  let { request } = built;
  const self = runSelf(state);
  if (self) {
    // A run's request names the run; a fork's starts with the parent's latest request (its plan goes with it).
    const plan = plans.get(request);
    request = runRequest(request, self);
    if (plan) plans.set(request, plan);
  }
  if (described) describing.set(request, describedWarning(model?.name, model?.accepts));
  return request;
}

/** The request, and whether it describes a file its model does not read. */
function buildClassic(state: SessionState, turnStart: boolean): { request: ModelRequest; described: boolean } {
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
    if (memo.key !== key) memo.toolsLoaded = null;
    memo.snap = snap;
    memo.key = key;
  }
  // The offered tools depend on the snapshot's tool list only (and whether it has skills): a commit
  // that changed no tool keeps that list, and the specs made from it.
  // No skills, listed skills, or searched skills (which add the search tool).
  const withSkills = snap.skillCount === 0 ? 0 : searching(snap) ? 2 : 1;
  if (memo.toolsLoaded !== loadedSkills(state) || memo.toolsOf !== snap.tools || memo.toolsWithSkills !== withSkills) {
    memo.tools = offeredTools(snap, cfg.readToolName);
    memo.toolsLoaded = loadedSkills(state);
    memo.toolsOf = snap.tools;
    memo.toolsWithSkills = withSkills;
  }
  if (memo.contextSnap !== snap || memo.contextLoaded !== loadedSkills(state)) {
    memo.context = renderContext(snap, loadedSkills(state));
    memo.contextSnap = snap;
    memo.contextLoaded = loadedSkills(state);
  }
  // A file of a kind the model does not read goes as a line describing it (the transcript keeps it).
  const accepts = state.options.model?.accepts;
  const current = currentWindow(state);
  let appendOnly: AppendOnlyRequest | undefined;
  let next: SentLogData | undefined;
  let described = false;
  // The messages are read for files once: an append-only request's items hold the messages from
  // its log's start on, so when they describe none, neither does a window that starts there or later.
  let windowRead = false;
  if (isAppendOnly(state)) {
    const plan = planAppendOnly(state, { system: memo.system, tools: memo.tools, snap }, turnStart);
    const items = describeUnread(plan.request.items, accepts);
    described = items.described;
    appendOnly = items.described ? { ...plan.request, items: items.messages } : plan.request;
    next = plan.next;
    windowRead = !items.described && current.start >= plan.next.start;
  }
  const seen = windowRead ? null : describeUnread(current.messages, accepts);
  const window = seen?.described ? { start: current.start, messages: seen.messages } : current;
  described ||= seen?.described === true;
  const fields: ModelRequest = {
    system: memo.system,
    context: memo.context,
    messages: window.messages,
    tools: memo.tools,
    contextPlacement: cfg.contextPlacement,
  };
  if (appendOnly) fields.appendOnly = appendOnly;
  // The request's own properties stay the classic plain data (its JSON, equality and snapshots are
  // unchanged); `attribution` and `lifecycle` are getters on its prototype.
  const request: ModelRequest = Object.assign(
    Object.create(withSkills ? WITH_LIFECYCLE : ATTRIBUTED) as ModelRequest,
    fields,
  );
  withAttribution(state, request, snap);
  if (next) plans.set(request, next);
  if (!withSkills) return { request, described };
  return { request: withLifecycle(state, request, memo, snap, window), described };
}

/** Sets up `request.attribution`: counted on first read, from the tree and loaded skills it was built from. */
function withAttribution(state: SessionState, request: ModelRequest, snap: TreeSnapshot): void {
  const loaded = loadedSkills(state);
  const entries = loaded.map((name) => snap.skillsByName.get(name));
  attributions.set(request, { snap, loaded, entries, tokenizer: state.options.tokenizer });
}

/** `request` with its lifecycle getter set up. */
function withLifecycle(
  state: SessionState,
  request: ModelRequest,
  memo: Memo,
  snap: TreeSnapshot,
  window: { start: number; messages: Message[] },
): ModelRequest {
  const cfg = config(state);
  // No window starts before this one again (unless the settings change): fold older records.
  state.told.log = foldBefore(state.told.log, window.start);
  const mounts = new Map(loadedSkills(state).map((name) => [name, mountCount(state, name)]));
  const inputs: LifecycleInputs = {
    snap,
    loaded: loadedSkills(state),
    readToolName: cfg.readToolName,
    contextLineLimit: cfg.contextLineLimit,
    windowMode: cfg.windowMode,
    log: state.told.log,
    mounts,
    start: window.start,
    messages: window.messages,
    prefixTools: [],
  };
  // Built on first read, from values that never change afterwards: adapters without deltas pay nothing.
  let built: RequestLifecycle | undefined;
  lifecycles.set(request, () => {
    if (!built) {
      inputs.prefixTools = prefixTools(memo, snap, inputs.readToolName);
      built = lifecycleOf(memo, inputs);
    }
    return built;
  });
  if (CHECK_DELTAS) {
    const problems = lifecycleProblems(request);
    if (problems.length > 0) throw new Error(`The request's lifecycle deltas are not sound: ${problems.join('; ')}.`);
  }
  return request;
}

/** The lifecycle for `inputs`, reusing the last one when nothing it depends on changed. */
function lifecycleOf(memo: Memo, inputs: LifecycleInputs): RequestLifecycle {
  const mountsKey = [...inputs.mounts.values()].join(',');
  const last = memo.lifecycle;
  if (last) {
    const a = last.inputs;
    const same =
      a.snap === inputs.snap &&
      a.loaded === inputs.loaded &&
      a.log === inputs.log &&
      a.start === inputs.start &&
      a.messages.length === inputs.messages.length &&
      a.messages[a.messages.length - 1] === inputs.messages[inputs.messages.length - 1] &&
      a.readToolName === inputs.readToolName &&
      a.contextLineLimit === inputs.contextLineLimit &&
      a.windowMode === inputs.windowMode &&
      last.mountsKey === mountsKey;
    if (same) return last.value;
  }
  const value = buildLifecycle(inputs);
  memo.lifecycle = { inputs, mountsKey, value };
  return value;
}
