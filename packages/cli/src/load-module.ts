/**
 * Loads an agent module (`.tsx`, `.ts`, `.jsx`, `.js`) with tsx, and the `@skilltree/core` the
 * module itself uses.
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Model } from '@skilltree/core';
import type { ReactElement } from 'react';
import { CliError, errorMessage } from './errors.js';

/** The `@skilltree/core` module namespace. */
export type CoreModule = typeof import('@skilltree/core');

/** The optional `demo` export of an agent module: a scripted conversation played offline. */
export interface AgentDemo {
  /** The user messages of the demo, in order. */
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
  /** The module's `demo` export, when it has a valid one. */
  demo?: AgentDemo;
  /** The `@skilltree/core` the module resolves: sessions must come from the same copy as its hooks. */
  core: CoreModule;
}

let registered: string | false | undefined;

/** The nearest `tsconfig.json` at or above `dir`, or null. */
function nearestTsconfig(dir: string): string | null {
  for (let current = dir; ; current = dirname(current)) {
    const candidate = join(current, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(current) === current) return null;
  }
}

/** A tsconfig for modules outside any TypeScript project: the automatic JSX runtime. */
function fallbackTsconfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skilltree-tsx-'));
  const file = join(dir, 'tsconfig.json');
  writeFileSync(file, JSON.stringify({ compilerOptions: { jsx: 'react-jsx', module: 'NodeNext', target: 'ES2022' } }));
  return file;
}

/**
 * Registers tsx's loader hooks globally (once per process), using the tsconfig nearest to the
 * module. A global registration plus a plain `import()` gives the agent the same `react` and
 * `@skilltree/core` instances as everything else in the process; a namespaced `tsImport` would
 * load second copies and break hooks and context.
 */
async function registerTsx(modulePath: string): Promise<void> {
  if (registered !== undefined) return;
  const tsconfig = nearestTsconfig(dirname(modulePath)) ?? fallbackTsconfig();
  const { register } = await import('tsx/esm/api');
  register({ tsconfig });
  registered = tsconfig;
}

/** Imports the `@skilltree/core` that `modulePath` resolves, falling back to the CLI's own copy. */
async function coreFor(modulePath: string): Promise<CoreModule> {
  try {
    const resolved = createRequire(modulePath).resolve('@skilltree/core');
    return (await import(pathToFileURL(resolved).href)) as CoreModule;
  } catch {
    return await import('@skilltree/core');
  }
}

/** `createElement` of the `react` that `modulePath` resolves (the copy its hooks use). */
async function reactFor(modulePath: string): Promise<typeof import('react').createElement> {
  let mod: { default?: typeof import('react') } & Partial<typeof import('react')>;
  try {
    mod = await import(pathToFileURL(createRequire(modulePath).resolve('react')).href);
  } catch {
    mod = await import('react');
  }
  return (mod.createElement ?? mod.default!.createElement) as typeof import('react').createElement;
}

function isElement(value: unknown): value is ReactElement {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $$typeof?: unknown }).$$typeof === 'symbol' &&
    'props' in value
  );
}

function isComponent(value: unknown): boolean {
  if (typeof value === 'function') return true;
  // memo() and forwardRef() components are objects with a $$typeof and no props.
  return typeof value === 'object' && value !== null && typeof (value as { $$typeof?: unknown }).$$typeof === 'symbol';
}

function hint(error: unknown): string {
  const message = errorMessage(error);
  if (/React is not defined/.test(message)) {
    return ' (the JSX was compiled for the classic runtime: set "jsx": "react-jsx" in the nearest tsconfig.json)';
  }
  if (/require\(\) ES Module|Cannot use import statement outside a module/.test(message)) {
    return ' (the module is compiled as CommonJS: add "type": "module" to the nearest package.json)';
  }
  return '';
}

/**
 * Loads the agent module at `file` (relative to `cwd`). Throws a {@link CliError} when the file is
 * missing, fails to load, or has no default export that is an agent element or component.
 */
export async function loadAgentModule(file: string, cwd: string): Promise<AgentModule> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new CliError(`Agent module not found: ${file} (looked at ${path}).`);
  if (!statSync(path).isFile()) throw new CliError(`Agent module is not a file: ${file}.`);
  await registerTsx(path);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (error) {
    const stack = error instanceof Error && error.stack ? `\n${error.stack.split('\n').slice(1, 4).join('\n')}` : '';
    throw new CliError(`Could not load ${file}: ${errorMessage(error)}${hint(error)}${stack}`);
  }
  const core = await coreFor(path);
  const createElement = await reactFor(path);
  const agent = exports.default;
  let element: () => ReactElement;
  if (isElement(agent)) {
    element = () => agent;
  } else if (isComponent(agent)) {
    element = () => createElement(agent as Parameters<typeof createElement>[0]);
  } else {
    const named = Object.keys(exports).filter((k) => k !== 'default' && k !== 'demo');
    throw new CliError(
      `${file} has no default export to run. Export the agent as default: "export default <MyAgent />" or "export default MyAgent"` +
        (named.length > 0 ? ` (it exports: ${named.join(', ')}).` : '.'),
    );
  }
  return { path, element, demo: readDemo(exports.demo, file), core };
}

function readDemo(demo: unknown, file: string): AgentDemo | undefined {
  if (demo === undefined) return undefined;
  const d = demo as Partial<AgentDemo> | null;
  if (
    !d ||
    typeof d !== 'object' ||
    !Array.isArray(d.messages) ||
    !d.messages.every((m) => typeof m === 'string') ||
    typeof d.model !== 'function'
  ) {
    throw new CliError(`${file}: "demo" must be { messages: string[]; model: () => Model }.`);
  }
  return { messages: d.messages, model: d.model };
}
