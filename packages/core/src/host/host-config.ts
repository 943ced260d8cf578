/**
 * The react-reconciler host config, split by concern and merged at the bottom (as React Native's
 * test renderer does). Only mutation mode is supported; hydration, persistence, resources and
 * singletons are off.
 */
import { createContext } from 'react';
import type { EventPriority, HostConfig } from 'react-reconciler';
import { DiscreteEventPriority, NoEventPriority } from 'react-reconciler/constants.js';
import {
  appendChild,
  createElement,
  createTextNode,
  type HostChild,
  type HostElement,
  type HostParent,
  type HostRoot,
  type HostTextNode,
  type HostType,
  insertBefore,
  markDirty,
  removeChild,
} from './node.js';
import { ownerName } from './owner.js';

type HostContext = { insideText: boolean; textOwner: string };
type Props = Record<string, any>;

/**
 * The reconciler's view of our host: element types are strings, instances are {@link HostElement}s
 * and text nodes, the container is the {@link HostRoot}. No Suspense or Activity instances (no
 * hydration), no child sets (mutation mode), no transitions status, no suspended commits.
 */
export type SkilltreeHostConfig = HostConfig<
  string, // Type
  Props,
  HostRoot, // Container
  HostElement, // Instance
  HostTextNode, // TextInstance
  never, // ActivityInstance
  never, // SuspenseInstance
  never, // HydratableInstance
  never, // FormInstance
  HostElement | HostTextNode, // PublicInstance
  HostContext,
  never, // ChildSet
  ReturnType<typeof setTimeout>, // TimeoutHandle
  -1, // NoTimeout
  null, // TransitionStatus
  null, // SuspendedState
  null, // RendererInspectionConfig
  never, // FormStateMarkerInstance
  never, // HoistableRoot
  never // Resource
>;
type Part = Partial<SkilltreeHostConfig>;

const HOST_TYPES = new Set<string>([
  'skilltree-agent',
  'skilltree-skill',
  'skilltree-instructions',
  'skilltree-text',
  'skilltree-tool',
]);

const TEXT_TYPES = new Set<string>(['skilltree-instructions', 'skilltree-text']);

/**
 * The text of an `<Instructions>` or `<Text>` whose children are only strings and numbers (what
 * nearly every one holds), or null when a child is anything else. React leaves such text to the
 * host (`shouldSetTextContent`) instead of making a fiber per string, and a fiber per string is kept
 * twice once its parent re-rendered: the host keeps the text as one text node of its own instead.
 * null, undefined and booleans render nothing, as they do as React children.
 */
export function directText(children: unknown): string | null {
  if (typeof children === 'string') return children;
  if (typeof children === 'number') return String(children);
  if (!Array.isArray(children)) return null;
  let out = '';
  for (const child of children) {
    if (typeof child === 'string') out += child;
    else if (typeof child === 'number') out += String(child);
    else if (child !== null && child !== undefined && typeof child !== 'boolean') return null;
  }
  return out;
}

/** Gives `instance` the text node that holds its direct text (see {@link directText}), or updates it. */
function setDirectText(instance: HostElement, text: string): void {
  const current = instance.children[0];
  if (instance.children.length === 1 && current.kind === 'text') {
    if (current.value === text) return;
    current.value = text;
  } else {
    for (const child of instance.children) child.parent = null;
    const node = createTextNode(text);
    node.parent = instance;
    instance.children = [node];
  }
  markDirty(instance);
}

/** Props without `children`: children are host nodes, not props the serializer reads. */
function ownProps(props: Record<string, any>): Record<string, any> {
  const { children: _children, ...rest } = props;
  return rest;
}

/**
 * How `next` (React's props, with `children`) differs from `prev` (the instance's, without):
 * not at all, only in a tool's `run` (a function before and after), or otherwise. One pass, no copy:
 * it runs for every host element a parent re-renders.
 */
function propsChange(type: string, prev: Record<string, any>, next: Record<string, any>): 'none' | 'run' | 'other' {
  let count = 0;
  let run = false;
  for (const key in next) {
    if (key === 'children') continue;
    count++;
    const value = next[key];
    if (Object.is(value, prev[key])) continue;
    if (key === 'run' && type === 'skilltree-tool' && typeof value === 'function' && typeof prev.run === 'function') {
      run = true;
      continue;
    }
    return 'other';
  }
  let prevCount = 0;
  for (const _key in prev) prevCount++;
  if (count !== prevCount) return 'other';
  return run ? 'run' : 'none';
}

const creation = {
  createInstance(type, props, _root, _ctx, fiber) {
    if (!HOST_TYPES.has(type)) {
      throw new Error(
        `skilltree cannot render <${type}>: only <Agent>, <Skill>, <Instructions>, <Text> and <Tool> reach the prompt. ` +
          'Render DOM elements with react-dom, not inside an agent.',
      );
    }
    const instance = createElement(type as HostType, ownProps(props), ownerName(fiber));
    const text = TEXT_TYPES.has(type) ? directText(props.children) : null;
    if (text !== null) setDirectText(instance, text);
    return instance;
  },
  createTextInstance(text, _root, ctx) {
    if (!ctx.insideText) {
      throw new Error(
        `Text "${text.length > 40 ? `${text.slice(0, 40)}…` : text}" must be rendered inside <Instructions> or <Text>` +
          ` (it was rendered by <${ctx.textOwner}>).`,
      );
    }
    return createTextNode(text);
  },
  appendInitialChild(parent, child) {
    appendChild(parent, child);
  },
  finalizeInitialChildren: () => false,
  shouldSetTextContent: (type, props) => TEXT_TYPES.has(type) && directText(props.children) !== null,
  getRootHostContext: (): HostContext => ({ insideText: false, textOwner: 'Agent' }),
  getChildHostContext(parent, type) {
    const insideText = TEXT_TYPES.has(type);
    if (insideText === parent.insideText) return parent;
    return { insideText, textOwner: parent.textOwner };
  },
  getPublicInstance: (instance) => instance,
} satisfies Part;

const mutation = {
  supportsMutation: true,
  supportsPersistence: false,
  appendChild: (parent: HostParent, child: HostChild) => appendChild(parent, child),
  appendChildToContainer: (root: HostRoot, child: HostChild) => appendChild(root, child),
  insertBefore: (parent: HostParent, child: HostChild, before: HostChild) => insertBefore(parent, child, before),
  insertInContainerBefore: (root: HostRoot, child: HostChild, before: HostChild) => insertBefore(root, child, before),
  removeChild: (parent: HostParent, child: HostChild) => removeChild(parent, child),
  removeChildFromContainer: (root: HostRoot, child: HostChild) => removeChild(root, child),
  // Children replace the direct text (React calls this before placing them): only its text node is there.
  resetTextContent(instance) {
    for (const child of instance.children) child.parent = null;
    instance.children = [];
    markDirty(instance);
  },
  commitTextUpdate(node, _old, text) {
    node.value = text;
    markDirty(node.parent);
  },
  // React 19 dropped the update payload: commitUpdate gets the old and new props.
  commitUpdate(instance, type, _old, next) {
    if (TEXT_TYPES.has(type)) {
      const text = directText(next.children);
      if (text !== null) setDirectText(instance, text);
    }
    // Parents re-render often with equal props; only a real change should invalidate the serializer
    // cache. A tool's `run` is read at call time, never serialized: an inline closure that is new on
    // every render must not make every request rebuild. It is swapped into the props object in
    // place, so everything cached by that object (spec, checks) stays good; a skill that re-renders
    // its tools on every step then costs no new spec and no new check per tool.
    const change = propsChange(instance.type, instance.props, next);
    if (change === 'none') return;
    if (change === 'run') {
      instance.props.run = next.run;
      return;
    }
    instance.props = ownProps(next);
    markDirty(instance);
  },
  commitMount() {},
  hideInstance(instance) {
    instance.hidden = true;
    markDirty(instance);
  },
  unhideInstance(instance) {
    instance.hidden = false;
    markDirty(instance);
  },
  hideTextInstance(node) {
    node.hidden = true;
    markDirty(node.parent);
  },
  unhideTextInstance(node) {
    node.hidden = false;
    markDirty(node.parent);
  },
  clearContainer(root) {
    for (const child of root.children) child.parent = null;
    root.children = [];
    markDirty(root);
  },
  detachDeletedInstance() {},
  prepareForCommit: () => null,
  resetAfterCommit() {},
  preparePortalMount() {},
} satisfies Part;

let currentUpdatePriority: EventPriority = NoEventPriority;

const priority = {
  setCurrentUpdatePriority(next) {
    currentUpdatePriority = next;
  },
  getCurrentUpdatePriority: () => currentUpdatePriority,
  // Updates from outside React (a tool's run, a timer, caller code) land here. Discrete priority makes
  // them sync-lane work, which flushSyncWork() commits before the next request is built.
  resolveUpdatePriority: () =>
    currentUpdatePriority !== NoEventPriority ? currentUpdatePriority : DiscreteEventPriority,
  resolveEventType: () => null,
  resolveEventTimeStamp: () => -1.1,
  shouldAttemptEagerTransition: () => false,
  trackSchedulerEvent() {},
} satisfies Part;

const scheduling = {
  scheduleTimeout: setTimeout,
  cancelTimeout: clearTimeout,
  noTimeout: -1,
  supportsMicrotasks: true,
  scheduleMicrotask: queueMicrotask,
  isPrimaryRenderer: false,
  warnsIfNotActing: true,
} satisfies Part;

// Asked for by React 19 (transitions and forms): a skilltree tree has no forms.
const react19Transitions = {
  NotPendingTransition: null,
  HostTransitionContext: createContext<null>(null),
  resetFormInstance() {},
  requestPostPaintCallback() {},
} satisfies Part;

// Asked for by React 19 (suspended commits: images, stylesheets) and 19.2 (view transitions). A
// skilltree tree loads no resources, so nothing ever suspends a commit.
const react19Commits = {
  maySuspendCommit: () => false,
  maySuspendCommitOnUpdate: () => false,
  maySuspendCommitInSyncRender: () => false,
  preloadInstance: () => true,
  startSuspendingCommit: () => null,
  suspendInstance() {},
  suspendOnActiveViewTransition() {},
  waitForCommitToBeReady: () => null,
  getSuspendedCommitReason: () => null,
} satisfies Part;

// Asked for by React 18 (focus blur, scopes, DevTools lookups) and 19 (console badges); unused here.
const legacy = {
  getInstanceFromNode: () => null,
  beforeActiveInstanceBlur() {},
  afterActiveInstanceBlur() {},
  prepareScopeUpdate() {},
  getInstanceFromScope: () => null,
  bindToConsole: (methodName, args) =>
    (console as unknown as Record<string, (...a: unknown[]) => unknown>)[methodName].bind(console, ...args),
} satisfies Part;

const unsupported = {
  supportsHydration: false,
  supportsResources: false,
  supportsSingletons: false,
  supportsTestSelectors: false,
  isHostHoistableType: () => false,
} satisfies Part;

const metadata = {
  rendererVersion: '0.1.0',
  rendererPackageName: '@skilltree/core',
  extraDevToolsConfig: null,
} satisfies Part;

/** The merged host config handed to react-reconciler. */
export const hostConfig: SkilltreeHostConfig = {
  ...metadata,
  ...creation,
  ...mutation,
  ...priority,
  ...scheduling,
  ...react19Transitions,
  ...react19Commits,
  ...legacy,
  ...unsupported,
};
