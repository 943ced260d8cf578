/**
 * What `--with` adds to a new project: for each package, its dependencies (the package, its peers,
 * and what its example imports) and a working example with a test, so nobody edits package.json
 * by hand to add one.
 */
import {
  FOLDERS,
  FOLDERS_TEST,
  MCP,
  MCP_TEST,
  MODELS,
  MODELS_TEST,
  SERVER,
  SERVER_TEST,
  SKILL_MD,
  SKILL_SCHEDULE,
  STORE,
  STORE_TEST,
} from './addon-files.js';
import { EVALS, EVALS_TEST } from './evals-files.js';
import type { AiSdkVersions, Versions } from './versions.js';

/** What `--with` accepts. */
export const ADDONS = ['server', 'store', 'agent-skills', 'mcp', 'models', 'evals'] as const;

/** One of {@link ADDONS}. */
export type Addon = (typeof ADDONS)[number];

/** What the project needs for an addon, given where it runs. */
export interface AddonContext {
  versions: Versions['tools'];
  /** Whether the Node that runs the project has `node:sqlite` (22.13+, 24): then SQLite needs no package. */
  nodeHasSqlite: boolean;
  /** The AI SDK that fits the Node that runs the project (see `aiSdkFor`): 6 on Node 20, 7 on 22 and later. */
  aiSdk: AiSdkVersions;
}

/** One addon: the packages it adds, the files it writes, and what the project's README says of it. */
export interface AddonSpec {
  /** `@skilltree/*` packages (from the registry, or from `--from` tarballs). */
  skilltree: string[];
  /** Whether they are tools of the tests rather than of the app (then they are devDependencies). */
  dev?: boolean;
  /** Third-party dependencies, exact versions: peers of the packages, and what the example imports. */
  dependencies(context: AddonContext): Record<string, string>;
  /** Scripts added to package.json. */
  scripts?: Record<string, string>;
  /** Path → content. */
  files: Record<string, string>;
  /** One line per file for the README and the printed summary. */
  describe: Record<string, string>;
}

/** Parses `--with a,b` (and repeated `--with`): known names, each once, in {@link ADDONS} order. */
export function parseAddons(values: readonly string[]): Addon[] {
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim());
  const unknown = names.filter((name) => name !== '' && !(ADDONS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`--with: unknown ${unknown.join(', ')} (choose from ${ADDONS.join(', ')}).`);
  }
  return ADDONS.filter((addon) => names.includes(addon));
}

/** Whether this Node has the built-in SQLite that `@skilltree/store/sqlite` uses instead of better-sqlite3. */
export function nodeHasSqlite(): boolean {
  // The store decides the same way at run time (packages/store/src/sqlite-driver.ts).
  try {
    return process.getBuiltinModule?.('node:sqlite') !== undefined;
  } catch {
    return false;
  }
}

/** Every addon, by name. */
export const ADDON_SPECS: Record<Addon, AddonSpec> = {
  server: {
    skilltree: ['@skilltree/server'],
    dependencies: ({ aiSdk }) => ({ ai: aiSdk.ai, '@ai-sdk/react': aiSdk['@ai-sdk/react'] }),
    scripts: { serve: 'tsx server.tsx' },
    files: { 'server.tsx': SERVER, 'server.test.tsx': SERVER_TEST },
    describe: {
      'server.tsx': "the agent behind useChat's API (`npm run serve`: http://127.0.0.1:3000/api/chat)",
      'server.test.tsx': "useChat's chat (@ai-sdk/react) talking to it on 127.0.0.1",
    },
  },
  store: {
    skilltree: ['@skilltree/store'],
    dependencies: ({ versions, nodeHasSqlite }): Record<string, string> =>
      nodeHasSqlite ? {} : { 'better-sqlite3': versions['better-sqlite3'] },
    files: { 'sessions.tsx': STORE, 'sessions.test.tsx': STORE_TEST },
    describe: {
      'sessions.tsx': 'sessions kept in a SQLite file (.skilltree/sessions.db)',
      'sessions.test.tsx': 'a conversation that outlives the process',
    },
  },
  'agent-skills': {
    skilltree: ['@skilltree/agent-skills'],
    dependencies: () => ({}),
    files: {
      'folder-agent.tsx': FOLDERS,
      'folder-agent.test.tsx': FOLDERS_TEST,
      'skills/plant-care/SKILL.md': SKILL_MD,
      'skills/plant-care/references/schedule.md': SKILL_SCHEDULE,
    },
    describe: {
      'folder-agent.tsx': 'an agent whose skills are the SKILL.md folders in skills/',
      'folder-agent.test.tsx': 'reading the plant-care skill and its files',
      'skills/plant-care/SKILL.md': 'an Agent Skills folder (with references/schedule.md)',
    },
  },
  models: {
    skilltree: ['@skilltree/models'],
    // The providers' SDKs come with the package.
    dependencies: () => ({}),
    files: { 'model.ts': MODELS, 'model.test.tsx': MODELS_TEST },
    describe: {
      'model.ts': 'the real model: Anthropic or OpenAI (or a compatible server), by the key that is set',
      'model.test.tsx': 'which key chooses which provider, and the agent on a local OpenAI-compatible server',
    },
  },
  evals: {
    skilltree: ['@skilltree/evals'],
    dev: true,
    // Its peers (react, @types/react, core) are the project's already.
    dependencies: () => ({}),
    scripts: { eval: 'skilltree eval agent.eval.tsx' },
    files: { 'agent.eval.tsx': EVALS, 'agent.eval.test.tsx': EVALS_TEST },
    describe: {
      'agent.eval.tsx': 'evals of the agent: which skills it reads and which tools it calls (`npm run eval`)',
      'agent.eval.test.tsx': 'the evals as tests: one per threshold, one per case, one for the run',
    },
  },
  mcp: {
    skilltree: ['@skilltree/mcp'],
    dependencies: ({ versions }) => ({ '@modelcontextprotocol/sdk': versions['@modelcontextprotocol/sdk'] }),
    files: { 'mcp-agent.tsx': MCP, 'mcp-agent.test.tsx': MCP_TEST },
    describe: {
      'mcp-agent.tsx': "a skill whose tools come from an MCP server (the SDK's, in process)",
      'mcp-agent.test.tsx': "the server's tools while the skill is loaded",
    },
  },
};
