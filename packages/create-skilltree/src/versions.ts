/**
 * The versions a scaffolded project pins: every public `@skilltree/*` package at the version this
 * release of `create-skilltree` was built with, and the third-party packages at the exact versions
 * the skilltree repository tests with on Node 20 (react 19, zod 4, vitest 4, TypeScript 6), and those
 * the `--with` examples need (the AI SDK, better-sqlite3 for Node 20, the MCP SDK). `@types/node`
 * and the AI SDK's major follow the Node the project is made on.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Versions a scaffolded project uses. */
export interface Versions {
  /** Public packages of the skilltree repository, name → version. */
  skilltree: Record<string, string>;
  /** Third-party packages, exact versions tested together. */
  tools: {
    react: string;
    zod: string;
    vitest: string;
    typescript: string;
    tsx: string;
    '@types/react': string;
    /** The repository's (Node 20's); a project gets its own Node's, from {@link Versions.typesNode}. */
    '@types/node': string;
    /** `--with server`: the AI SDK (its UI message stream and `DefaultChatTransport`). */
    ai: string;
    /** `--with server`: `useChat`, and the DOM renderer a web page needs. */
    '@ai-sdk/react': string;
    'react-dom': string;
    /** `--with store` on a Node without a built-in SQLite (Node 20). */
    'better-sqlite3': string;
    /** `--with mcp`: the official SDK the example server is written with. */
    '@modelcontextprotocol/sdk': string;
  };
  /**
   * `@types/node` for each Node major a project may run on, exact (the project gets its own Node's,
   * see {@link typesNodeFor}): 20 is what the repository tests with, the others what the consumer
   * test type-checks a new project with on that Node.
   */
  typesNode: Record<string, string>;
  /**
   * `--with server`'s AI SDK for each Node major it fits, exact (see {@link aiSdkFor}): 20 gets the
   * repository's (AI SDK 6), 22 and later {@link AI_SDK_7}. Absent in a `versions.json` written
   * before it: then every Node gets `tools.ai` and `tools['@ai-sdk/react']`.
   */
  aiSdk?: Record<string, AiSdkVersions>;
}

/** The AI SDK packages `--with server` adds: the server's peer and `useChat`. */
export interface AiSdkVersions {
  ai: string;
  '@ai-sdk/react': string;
}

/**
 * AI SDK 7, for a project on Node 22 or later (`ai` 7, `@ai-sdk/react` 4 and their providers declare
 * Node >= 22, so Node 20 keeps AI SDK 6). `@skilltree/server` accepts both (`ai` `^6.0.0 || ^7.0.0`).
 * Raise them with the consumer test, which runs a new project's server test with them on Node 22 and 24.
 */
export const AI_SDK_7: AiSdkVersions = { ai: '7.0.173', '@ai-sdk/react': '4.0.177' };

/** The first Node major {@link AI_SDK_7} runs on. */
export const AI_SDK_7_NODE = 22;

/**
 * The AI SDK for a project that runs on Node `major`: the entry of `versions.aiSdk` for the newest
 * major at or below it (the oldest one for an older Node), else the repository's own.
 */
export function aiSdkFor(major: number, versions: Pick<Versions, 'aiSdk' | 'tools'>): AiSdkVersions {
  const fallback = { ai: versions.tools.ai, '@ai-sdk/react': versions.tools['@ai-sdk/react'] };
  const table = versions.aiSdk;
  if (!table || Object.keys(table).length === 0) return fallback;
  const known = Object.keys(table)
    .map(Number)
    .sort((a, b) => a - b);
  const below = known.filter((m) => m <= major);
  return table[String(below.length > 0 ? below[below.length - 1] : known[0])] ?? fallback;
}

/**
 * `@types/node` of the Node lines besides 20 (whose version is the repository's own). Raise them
 * with the Node binaries of the consumer test (scripts/lib/node-binaries.mjs), which type-checks a
 * new project with them on each Node.
 */
export const TYPES_NODE = { '22': '22.20.7', '24': '24.19.4' } as const;

/**
 * The `@types/node` for a project that runs on Node `major`: that major's, or, for a Node without
 * one in `typesNode` (a newer line, an odd one), the newest one below it (the oldest one above it
 * for an older Node). Types of an older Node describe a newer one, less its newest APIs.
 */
export function typesNodeFor(major: number, typesNode: Record<string, string>): string {
  const known = Object.keys(typesNode)
    .map(Number)
    .sort((a, b) => a - b);
  const below = known.filter((m) => m <= major);
  const chosen = below.length > 0 ? below[below.length - 1] : known[0];
  return typesNode[String(chosen)];
}

/** The major version of the Node running this process. */
export function nodeMajor(): number {
  return Number(process.versions.node.split('.')[0]);
}

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function readManifest(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

function exact(name: string, value: string | undefined, where: string): string {
  if (!value || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(value)) {
    throw new Error(`create-skilltree: ${where} must pin ${name} to an exact version (found ${value ?? 'nothing'}).`);
  }
  return value;
}

/**
 * Reads the versions from a skilltree checkout: `root` is the repository root (with `packages/*`).
 * The build writes the result to `dist/versions.json`.
 */
export function workspaceVersions(root: string): Versions {
  const packagesDir = join(root, 'packages');
  const manifests = new Map<string, Manifest>();
  for (const entry of readdirSync(packagesDir)) {
    const file = join(packagesDir, entry, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = readManifest(file);
    if (manifest.private !== true) manifests.set(manifest.name, manifest);
  }
  const skilltree: Record<string, string> = {};
  for (const [name, manifest] of [...manifests].sort(([a], [b]) => a.localeCompare(b))) {
    if (name !== 'create-skilltree') skilltree[name] = manifest.version;
  }
  const core = manifests.get('@skilltree/core');
  const testing = manifests.get('@skilltree/testing');
  const cli = manifests.get('@skilltree/cli');
  if (!core || !testing || !cli) throw new Error('create-skilltree: packages/core, testing and cli are needed.');
  const server = manifests.get('@skilltree/server');
  const store = manifests.get('@skilltree/store');
  const mcp = manifests.get('@skilltree/mcp');
  if (!server || !store || !mcp) throw new Error('create-skilltree: packages/server, store and mcp are needed.');
  // The web chat example is where the repository tests @ai-sdk/react and react-dom (in Chromium).
  const webChat = readManifest(join(root, 'examples', 'web-chat', 'package.json'));
  const rootManifest = readManifest(join(root, 'package.json'));
  const typesNode20 = exact('@types/node', core.devDependencies?.['@types/node'], 'packages/core devDependencies');
  const aiSdk6: AiSdkVersions = {
    ai: exact('ai', server.devDependencies?.ai, 'packages/server devDependencies'),
    '@ai-sdk/react': exact('@ai-sdk/react', webChat.dependencies?.['@ai-sdk/react'], 'examples/web-chat dependencies'),
  };
  return {
    skilltree,
    typesNode: { [typesNode20.split('.')[0]]: typesNode20, ...TYPES_NODE },
    aiSdk: { '20': aiSdk6, [String(AI_SDK_7_NODE)]: AI_SDK_7 },
    tools: {
      react: exact('react', core.devDependencies?.react, 'packages/core devDependencies'),
      zod: exact('zod', core.devDependencies?.zod, 'packages/core devDependencies'),
      vitest: exact('vitest', testing.devDependencies?.vitest, 'packages/testing devDependencies'),
      typescript: exact('typescript', rootManifest.devDependencies?.typescript, 'the root devDependencies'),
      tsx: exact('tsx', cli.dependencies?.tsx, 'packages/cli dependencies'),
      '@types/react': exact('@types/react', core.devDependencies?.['@types/react'], 'packages/core devDependencies'),
      '@types/node': typesNode20,
      ai: exact('ai', server.devDependencies?.ai, 'packages/server devDependencies'),
      '@ai-sdk/react': exact(
        '@ai-sdk/react',
        webChat.dependencies?.['@ai-sdk/react'],
        'examples/web-chat dependencies',
      ),
      'react-dom': exact('react-dom', webChat.dependencies?.['react-dom'], 'examples/web-chat dependencies'),
      'better-sqlite3': exact(
        'better-sqlite3',
        store.devDependencies?.['better-sqlite3'],
        'packages/store devDependencies',
      ),
      '@modelcontextprotocol/sdk': exact(
        '@modelcontextprotocol/sdk',
        mcp.dependencies?.['@modelcontextprotocol/sdk'],
        'packages/mcp dependencies',
      ),
    },
  };
}

let cached: Versions | undefined;

/**
 * The versions this copy of `create-skilltree` pins: `dist/versions.json` when it was built, else
 * (running from the sources inside the repository) read from the checkout.
 */
export function bundledVersions(): Versions {
  if (cached) return cached;
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, 'versions.json');
  cached = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Versions)
    : workspaceVersions(join(here, '..', '..', '..'));
  return cached;
}
