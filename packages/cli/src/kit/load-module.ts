/**
 * The one loader of agent modules (`.tsx`, `.ts`, `.jsx`, `.js`) for every command: tsx
 * compiles them, and the `react` and `@skilltree/core` the module itself resolves are used, so that
 * sessions, hooks and context share one instance.
 *
 * `dev` loads the same module again after an edit. Node never evicts an ES module from its cache,
 * so every load imports the module under a fresh URL (`agent.tsx?skilltree-v=N`), and a resolve
 * hook gives every project file it imports the same query: project files are evaluated anew, while
 * packages (react, @skilltree/core, anything from a bare specifier or under node_modules) keep
 * their single instance. `chat`, `run` and `serve` load once, through the very same path, and read
 * the module's other exports (`model`, `sessionOptions`, `budget`, `telemetry`, `authorize`, `engine`: see
 * ./module-options.ts) from the one evaluation.
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Model } from '@skilltree/core';
import type { ReactElement } from 'react';
import { CliError, errorMessage } from './errors.js';
import { importNotingRejections } from './import-rejections.js';
import { type ModuleOptions, readModuleOptions } from './module-options.js';
import { importNextTo } from './resolve.js';

/** The `@skilltree/core` module namespace. */
export type CoreModule = typeof import('@skilltree/core');

/** The optional `demo` export of an agent module: a scripted conversation played offline. */
export interface AgentDemo {
  /** The user messages of the demo, in order: the script answers them. */
  messages: string[];
  /** A fresh scripted model that answers them. */
  model: () => Model;
}

/** A loaded agent module. */
export interface AgentModule {
  /** Absolute path of the module file. */
  path: string;
  /** A fresh element of the agent (the default export, rendered when it is a component). */
  element: () => ReactElement;
  /** The module's `demo` export, when it has one. */
  demo?: AgentDemo;
  /** The `@skilltree/core` the module resolves: sessions must come from the same copy as its hooks. */
  core: CoreModule;
  /** Everything the module exports, from the one evaluation. */
  exports: Readonly<Record<string, unknown>>;
  /** Its optional exports, checked: `model`, `sessionOptions`, `budget`, `telemetry`, `authorize`, `engine`. */
  options: ModuleOptions;
}

/** The query parameter that versions each load of a module (and of the project files it imports). */
export const VERSION_PARAM = 'skilltree-v';

/**
 * The resolve hook. A specifier written as a path (relative, absolute, `file:`, or a `#` import)
 * inside a versioned module resolves to a versioned URL, unless it lands in node_modules.
 */
const HOOK_SOURCE = `
const PARAM = ${JSON.stringify(VERSION_PARAM)};
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  const parent = context.parentURL;
  if (!parent || !result.url.startsWith('file:') || result.url.includes('/node_modules/')) return result;
  const match = new RegExp('[?&]' + PARAM + '=(\\\\d+)').exec(parent);
  if (!match) return result;
  if (!/^(\\.|\\/|file:|#)/.test(specifier)) return result;
  if (result.url.includes(PARAM + '=')) return result;
  return { ...result, url: result.url + (result.url.includes('?') ? '&' : '?') + PARAM + '=' + match[1] };
}
`;

let versionHookInstalled = false;

function installVersionHook(): void {
  if (versionHookInstalled) return;
  versionHookInstalled = true;
  registerHooks(`data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`);
}

/** The nearest `tsconfig.json` at or above `dir`, else a temporary one with the automatic JSX runtime. */
function findTsconfig(dir: string): string {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) break;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'skilltree-tsx-')), 'tsconfig.json');
  writeFileSync(file, JSON.stringify({ compilerOptions: { jsx: 'react-jsx', module: 'NodeNext', target: 'ES2022' } }));
  return file;
}

/**
 * An error message with a hint when the cause is a known setup mistake (classic JSX runtime,
 * CommonJS). For load errors and for errors the agent throws while rendering.
 */
export function explainError(error: unknown): string {
  const message = errorMessage(error);
  if (/React is not defined/.test(message)) {
    return `${message} (the JSX was compiled for the classic runtime: set "jsx": "react-jsx" in the nearest tsconfig.json)`;
  }
  if (/require\(\) ES Module|Cannot use import statement outside a module/.test(message)) {
    return `${message} (the module is compiled as CommonJS: add "type": "module" to the nearest package.json)`;
  }
  return message;
}

/** A function or a memo()/forwardRef() component (an object with a $$typeof and no props). */
function isComponent(value: unknown): boolean {
  if (typeof value === 'function') return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $$typeof?: unknown }).$$typeof === 'symbol' &&
    !('props' in value)
  );
}

function isElement(value: unknown): value is ReactElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $$typeof?: unknown }).$$typeof === 'symbol' &&
    'props' in value
  );
}

function readDemo(demo: unknown, name: string): AgentDemo | undefined {
  if (demo === undefined) return undefined;
  const d = demo as Partial<AgentDemo> | null;
  if (
    !d ||
    typeof d !== 'object' ||
    !Array.isArray(d.messages) ||
    !d.messages.every((m) => typeof m === 'string') ||
    typeof d.model !== 'function'
  ) {
    throw new CliError(
      `${name}: "demo" must be { messages: string[]; model: () => Model }, e.g. { messages: ['hi'], model: () => scriptedModel([{ text: 'Hello!' }]) }.`,
    );
  }
  return { messages: d.messages, model: d.model };
}

/**
 * Loads one agent module, as often as asked: each {@link load} evaluates it (and the project files
 * it imports) anew. Keeps the files it imported, for a watcher.
 */
export class AgentLoader {
  /** Absolute path of the module. */
  readonly file: string;
  readonly dir: string;
  /** Project files the module imported (absolute paths), for the watcher. */
  readonly files = new Set<string>();
  /** Successful loads. */
  generation = 0;
  /** The module as the user named it, for messages. */
  readonly #name: string;
  /** Every load gets a fresh URL: Node caches a module that failed to evaluate under its URL too. */
  #attempt = 0;
  #unregister: (() => Promise<void>) | null = null;
  #core: CoreModule | null = null;
  #createElement: typeof import('react').createElement | null = null;

  constructor(module: string, cwd = process.cwd()) {
    this.file = resolve(cwd, module);
    this.dir = dirname(this.file);
    this.#name = module;
  }

  /**
   * Registers tsx's hooks (globally, so a plain `import()` gives the agent the process's single
   * `react` and `@skilltree/core`; a namespaced `tsImport` would load second copies and break hooks
   * and context), using the tsconfig nearest to the module.
   */
  async #register(): Promise<void> {
    if (this.#unregister) return;
    const { register } = await import('tsx/esm/api');
    this.#unregister = register({
      tsconfig: findTsconfig(this.dir),
      onImport: (url) => {
        if (!url.startsWith('file:') || !url.includes(`${VERSION_PARAM}=`) || url.includes('/node_modules/')) return;
        this.files.add(fileURLToPath(url.split('?')[0]));
      },
    });
    installVersionHook();
  }

  /** `@skilltree/core` as the module resolves it (one RuntimeContext with its components), else the CLI's own. */
  async core(): Promise<CoreModule> {
    // The module may not see @skilltree/core (it may not use it): the CLI's own then.
    this.#core ??=
      (await importNextTo(
        this.file,
        '@skilltree/core',
        (m): m is CoreModule => typeof m?.createSession === 'function',
      )) ?? (await import('@skilltree/core'));
    return this.#core;
  }

  /** `createElement` of the `react` the module resolves (the copy its hooks use), else the CLI's own. */
  async #react(): Promise<typeof import('react').createElement> {
    if (this.#createElement) return this.#createElement;
    type React = { default?: typeof import('react') } & Partial<typeof import('react')>;
    const mod: React =
      (await importNextTo(
        this.file,
        'react',
        (m): m is React => typeof (m?.createElement ?? m?.default?.createElement) === 'function',
      )) ?? (await import('react'));
    this.#createElement = (mod.createElement ?? mod.default!.createElement) as typeof import('react').createElement;
    return this.#createElement;
  }

  /**
   * Evaluates the module anew. Throws a {@link CliError} when the file is missing, fails to load,
   * has no default export that is an agent element or component, or has a malformed `demo` (or
   * another optional export, see {@link readModuleOptions}).
   */
  async load(): Promise<AgentModule> {
    const name = this.#name;
    if (!existsSync(this.file)) throw new CliError(`Agent module not found: ${name} (looked at ${this.file}).`);
    if (!statSync(this.file).isFile()) throw new CliError(`Agent module is not a file: ${name}.`);
    await this.#register();
    const attempt = ++this.#attempt;
    this.files.add(this.file);
    let exports: Record<string, unknown>;
    let rejected: Map<unknown, unknown>;
    try {
      // A Promise the module leaves rejected (an export, or one it never awaits) is named, not fatal.
      ({ exports, rejected } = await importNotingRejections(
        async () =>
          (await import(`${pathToFileURL(this.file).href}?${VERSION_PARAM}=${attempt}`)) as Record<string, unknown>,
        name,
      ));
    } catch (error) {
      if (error instanceof CliError) throw error;
      const stack = error instanceof Error && error.stack ? `\n${error.stack.split('\n').slice(1, 4).join('\n')}` : '';
      throw new CliError(`Could not load ${name}: ${explainError(error)}${stack}`);
    }
    const core = await this.core();
    const createElement = await this.#react();
    const agent = exports.default;
    let element: () => ReactElement;
    if (isElement(agent)) {
      element = () => agent;
    } else if (isComponent(agent)) {
      element = () => createElement(agent as Parameters<typeof createElement>[0]);
    } else {
      const named = Object.keys(exports).filter((k) => k !== 'default' && k !== 'demo');
      throw new CliError(
        `${name} has no default export to run. Export the agent as default: "export default <MyAgent />" or "export default MyAgent"` +
          (named.length > 0 ? ` (it exports: ${named.join(', ')}).` : '.'),
      );
    }
    const demo = readDemo(exports.demo, name);
    const options = readModuleOptions(exports, name, rejected);
    this.generation++;
    return { path: this.file, element, demo, core, exports, options };
  }

  /** Removes tsx's hooks. The module's code stays in memory (Node cannot evict it). */
  async close(): Promise<void> {
    const unregister = this.#unregister;
    this.#unregister = null;
    await unregister?.();
  }
}

/**
 * Imports a project's TypeScript or JavaScript module once (tsx compiles it with the tsconfig
 * nearest to it), e.g. an eval file, and returns its exports. Throws a {@link CliError} when the
 * file is missing or fails to load.
 */
export async function importModule(file: string, cwd: string, what = 'Module'): Promise<Record<string, unknown>> {
  const path = resolve(cwd, file);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new CliError(`${what} not found: ${file} (looked at ${path}).`);
  const { register } = await import('tsx/esm/api');
  // Left registered: what the module imports later (a lazy agent, a fixture) is compiled too.
  register({ tsconfig: findTsconfig(dirname(path)) });
  try {
    return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const stack = error instanceof Error && error.stack ? `\n${error.stack.split('\n').slice(1, 4).join('\n')}` : '';
    throw new CliError(`Could not load ${file}: ${explainError(error)}${stack}`);
  }
}

/**
 * Loads the agent module at `file` (relative to `cwd`) once: what `chat`, `run` and `serve` do. Throws a
 * {@link CliError} when the file is missing, fails to load, or has no default export that is an
 * agent element or component.
 */
export async function loadAgentModule(file: string, cwd: string): Promise<AgentModule> {
  return new AgentLoader(file, cwd).load();
}
