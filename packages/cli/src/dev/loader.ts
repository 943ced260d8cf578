/**
 * Loads an agent module with tsx, and loads it again after an edit.
 *
 * Node never evicts an ES module from its cache. So each load imports the module under a fresh
 * URL (`agent.tsx?skilltree-v=N`), and a resolve hook gives every project file it imports the same
 * query: project files are evaluated anew, while packages (react, @skilltree/core, anything from a
 * bare specifier or under node_modules) keep their single instance.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire, register as registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Model } from '@skilltree/core';
import * as ownCore from '@skilltree/core';
import { createElement, isValidElement, type ReactNode } from 'react';

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

let hooksInstalled = false;

function installVersionHook(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  registerHooks(`data:text/javascript,${encodeURIComponent(HOOK_SOURCE)}`);
}

/** The nearest tsconfig.json at or above `dir`, else a temporary one with the automatic JSX runtime. */
function findTsconfig(dir: string): string {
  let current = dir;
  for (;;) {
    const candidate = join(current, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'skilltree-dev-'));
  const file = join(tmp, 'tsconfig.json');
  writeFileSync(file, JSON.stringify({ compilerOptions: { jsx: 'react-jsx', module: 'NodeNext', strict: true } }));
  return file;
}

/** The `demo` export an agent module may have. */
export interface DemoExport {
  messages?: string[];
  model?: () => Model;
}

/** One evaluation of the agent module. */
export interface LoadedAgent {
  element: ReactNode;
  demo: DemoExport | null;
  generation: number;
}

export type CoreModule = typeof ownCore;

/** Keeps the module's generation, the files it imported, and tsx's registration. */
export class AgentLoader {
  readonly file: string;
  readonly dir: string;
  /** Project files the module imported (absolute paths), for the watcher. */
  readonly files = new Set<string>();
  /** Successful loads. */
  generation = 0;
  /** Every load gets a fresh URL: Node caches a module that failed to evaluate under its URL too. */
  #attempt = 0;
  #unregister: (() => Promise<void>) | null = null;
  #core: CoreModule | null = null;

  constructor(module: string, cwd = process.cwd()) {
    this.file = isAbsolute(module) ? module : resolve(cwd, module);
    this.dir = dirname(this.file);
  }

  async #register(): Promise<void> {
    if (this.#unregister) return;
    if (!existsSync(this.file)) throw new Error(`Agent module not found: ${this.file}`);
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

  /**
   * `@skilltree/core` as the agent module resolves it, so that the session and the agent's
   * components share one instance (one RuntimeContext) even when the CLI is installed elsewhere.
   */
  async core(): Promise<CoreModule> {
    if (this.#core) return this.#core;
    let core: CoreModule = ownCore;
    try {
      const path = createRequire(this.file).resolve('@skilltree/core');
      const theirs = (await import(pathToFileURL(path).href)) as CoreModule;
      if (typeof theirs.createSession === 'function') core = theirs;
    } catch {
      // The module does not see @skilltree/core (it may not use it): use the CLI's own.
    }
    this.#core = core;
    return core;
  }

  /** Evaluates the module anew and returns its agent element. */
  async load(): Promise<LoadedAgent> {
    await this.#register();
    const attempt = ++this.#attempt;
    this.files.add(this.file);
    let mod: Record<string, unknown>;
    try {
      mod = await import(`${pathToFileURL(this.file).href}?${VERSION_PARAM}=${attempt}`);
    } catch (error) {
      throw explainImportError(error, this.file);
    }
    const element = toElement(mod, this.file);
    this.generation++;
    return { element, demo: toDemo(mod.demo), generation: this.generation };
  }

  async close(): Promise<void> {
    const unregister = this.#unregister;
    this.#unregister = null;
    await unregister?.();
  }
}

function explainImportError(error: unknown, file: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  const out = new Error(`Could not load ${file}: ${message}`);
  if (error instanceof Error && error.stack)
    out.stack = `${out.message}\n${error.stack.split('\n').slice(1).join('\n')}`;
  return out;
}

function toElement(mod: Record<string, unknown>, file: string): ReactNode {
  const value = mod.default;
  if (isValidElement(value)) return value;
  // Function components, and memo()/forwardRef() components (objects with a $$typeof).
  if (
    typeof value === 'function' ||
    (typeof value === 'object' && value !== null && typeof (value as { $$typeof?: unknown }).$$typeof === 'symbol')
  ) {
    return createElement(value as () => ReactNode);
  }
  const named = Object.keys(mod).filter((key) => key !== 'default' && key !== 'demo');
  throw new Error(
    `${file} has no default export the playground can render: export default an element (export default <MyAgent />) or a component (export default MyAgent)` +
      (named.length > 0 ? `; it exports: ${named.join(', ')}.` : '.'),
  );
}

function toDemo(value: unknown): DemoExport | null {
  if (!value || typeof value !== 'object') return null;
  const demo = value as DemoExport;
  return {
    messages: Array.isArray(demo.messages) ? demo.messages.filter((m) => typeof m === 'string') : undefined,
    model: typeof demo.model === 'function' ? demo.model : undefined,
  };
}

/** Hints for errors the agent's render throws that have a known cause. */
export function explainRenderError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/React is not defined/.test(message)) {
    return `${message} (the module was compiled with the classic JSX runtime: set "jsx": "react-jsx" in its tsconfig.json)`;
  }
  if (/require\(\) ES Module|Cannot use import statement outside a module/.test(message)) {
    return `${message} (the module is compiled as CommonJS: add "type": "module" to the nearest package.json)`;
  }
  return message;
}
