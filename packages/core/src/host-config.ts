/**
 * The react-reconciler host config, split by concern and merged at the bottom (as React Native's
 * test renderer does). Only mutation mode is supported; hydration, persistence, resources and
 * singletons are off.
 */
import { createContext } from 'react';
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
} from './host.js';
import { ownerName } from './owner.js';

type HostContext = { insideText: boolean; textOwner: string };

const HOST_TYPES = new Set<string>([
  'skilltree-agent',
  'skilltree-skill',
  'skilltree-instructions',
  'skilltree-text',
  'skilltree-tool',
]);

const TEXT_TYPES = new Set<string>(['skilltree-instructions', 'skilltree-text']);

/** Props without `children`: children are host nodes, not props the serializer reads. */
function ownProps(props: Record<string, any>): Record<string, any> {
  const { children: _children, ...rest } = props;
  return rest;
}

function shallowEqual(a: Record<string, any>, b: Record<string, any>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) if (!Object.is(a[key], b[key])) return false;
  return true;
}

const creation = {
  createInstance(type: string, props: Record<string, any>, _root: HostRoot, _ctx: HostContext, fiber: unknown) {
    if (!HOST_TYPES.has(type)) {
      throw new Error(
        `skilltree cannot render <${type}>: only <Agent>, <Skill>, <Instructions>, <Text> and <Tool> reach the prompt. ` +
          'Render DOM elements with react-dom, not inside an agent.',
      );
    }
    return createElement(type as HostType, ownProps(props), ownerName(fiber));
  },
  createTextInstance(text: string, _root: HostRoot, ctx: HostContext) {
    if (!ctx.insideText) {
      throw new Error(
        `Text "${text.length > 40 ? `${text.slice(0, 40)}…` : text}" must be rendered inside <Instructions> or <Text>` +
          ` (it was rendered by <${ctx.textOwner}>).`,
      );
    }
    return createTextNode(text);
  },
  appendInitialChild(parent: HostElement, child: HostChild) {
    appendChild(parent, child);
  },
  finalizeInitialChildren: () => false,
  shouldSetTextContent: () => false,
  getRootHostContext: (): HostContext => ({ insideText: false, textOwner: 'Agent' }),
  getChildHostContext(parent: HostContext, type: string): HostContext {
    const insideText = TEXT_TYPES.has(type);
    if (insideText === parent.insideText) return parent;
    return { insideText, textOwner: parent.textOwner };
  },
  getPublicInstance: (instance: HostElement | HostTextNode) => instance,
};

const mutation = {
  supportsMutation: true,
  supportsPersistence: false,
  appendChild: (parent: HostParent, child: HostChild) => appendChild(parent, child),
  appendChildToContainer: (root: HostRoot, child: HostChild) => appendChild(root, child),
  insertBefore: (parent: HostParent, child: HostChild, before: HostChild) => insertBefore(parent, child, before),
  insertInContainerBefore: (root: HostRoot, child: HostChild, before: HostChild) => insertBefore(root, child, before),
  removeChild: (parent: HostParent, child: HostChild) => removeChild(parent, child),
  removeChildFromContainer: (root: HostRoot, child: HostChild) => removeChild(root, child),
  resetTextContent() {},
  commitTextUpdate(node: HostTextNode, _old: string, text: string) {
    node.value = text;
    markDirty(node.parent);
  },
  // React 19 dropped the update payload: commitUpdate gets the old and new props.
  commitUpdate(instance: HostElement, _type: string, _old: Record<string, any>, next: Record<string, any>) {
    const props = ownProps(next);
    // Parents re-render often with equal props; only a real change should invalidate the serializer cache.
    if (shallowEqual(props, instance.props)) return;
    instance.props = props;
    markDirty(instance);
  },
  commitMount() {},
  hideInstance(instance: HostElement) {
    instance.hidden = true;
    markDirty(instance);
  },
  unhideInstance(instance: HostElement) {
    instance.hidden = false;
    markDirty(instance);
  },
  hideTextInstance(node: HostTextNode) {
    node.hidden = true;
    markDirty(node.parent);
  },
  unhideTextInstance(node: HostTextNode) {
    node.hidden = false;
    markDirty(node.parent);
  },
  clearContainer(root: HostRoot) {
    for (const child of root.children) child.parent = null;
    root.children = [];
    markDirty(root);
  },
  detachDeletedInstance() {},
  prepareForCommit: () => null,
  resetAfterCommit() {},
  preparePortalMount() {},
};

let currentUpdatePriority: number = NoEventPriority;

const priority = {
  setCurrentUpdatePriority(next: number) {
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
};

const scheduling = {
  scheduleTimeout: setTimeout,
  cancelTimeout: clearTimeout,
  noTimeout: -1,
  supportsMicrotasks: true,
  scheduleMicrotask: queueMicrotask,
  isPrimaryRenderer: false,
  warnsIfNotActing: true,
};

// Asked for by React 19 (transitions, forms, Suspense commits, view transitions). A skilltree tree has
// no forms, images or stylesheets, so nothing ever suspends a commit.
const react19 = {
  NotPendingTransition: null,
  HostTransitionContext: createContext<unknown>(null),
  resetFormInstance() {},
  requestPostPaintCallback() {},
  maySuspendCommit: () => false,
  maySuspendCommitOnUpdate: () => false,
  maySuspendCommitInSyncRender: () => false,
  preloadInstance: () => true,
  startSuspendingCommit() {},
  suspendInstance() {},
  suspendOnActiveViewTransition() {},
  waitForCommitToBeReady: () => null,
  getSuspendedCommitReason: () => null,
  getInstanceFromNode: () => null,
  beforeActiveInstanceBlur() {},
  afterActiveInstanceBlur() {},
  prepareScopeUpdate() {},
  getInstanceFromScope: () => null,
  bindToConsole: (methodName: string, args: unknown[]) =>
    (console as unknown as Record<string, (...a: unknown[]) => void>)[methodName].bind(console, ...args),
};

const unsupported = {
  supportsHydration: false,
  supportsResources: false,
  supportsSingletons: false,
  supportsTestSelectors: false,
  isHostHoistableType: () => false,
};

const metadata = {
  rendererVersion: '0.1.0',
  rendererPackageName: '@skilltree/core',
  extraDevToolsConfig: null,
};

/** The merged host config handed to react-reconciler. */
export const hostConfig = {
  ...metadata,
  ...creation,
  ...mutation,
  ...priority,
  ...scheduling,
  ...react19,
  ...unsupported,
};
