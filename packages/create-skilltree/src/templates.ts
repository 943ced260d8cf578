/**
 * The files of a new project. Every file is plain text; `package.json` is built from the options.
 */
import { ADDON_SPECS, type Addon } from './addons.js';
import { aiSdkFor, nodeMajor, typesNodeFor, type Versions } from './versions.js';

/** How the project gets the `@skilltree/*` packages. */
export type Source =
  | { kind: 'registry' }
  /** Tarballs from `pnpm pack:all`: package name → absolute path of its `.tgz`. */
  | { kind: 'tarballs'; tarballs: Record<string, string> };

/** What {@link projectFiles} needs. */
export interface TemplateOptions {
  /** The `name` field of the new package.json. */
  name: string;
  versions: Versions;
  source: Source;
  /** The package manager the printed commands and the README use. */
  packageManager: 'npm' | 'pnpm' | 'yarn' | 'bun';
  /** Packages added with their example and its test (`--with`). */
  addons?: readonly Addon[];
  /** Whether the Node that runs the project has `node:sqlite` (else `--with store` adds better-sqlite3). */
  nodeHasSqlite?: boolean;
  /** The major version of the Node that runs the project, for its `@types/node`. Default: this process's. */
  nodeMajor?: number;
}

const RUNTIME = ['@skilltree/core'];
const DEV = ['@skilltree/cli', '@skilltree/testing'];

function spec(name: string, options: TemplateOptions): string {
  if (options.source.kind === 'tarballs') {
    const tarball = options.source.tarballs[name];
    if (!tarball)
      throw new Error(`No tarball for ${name} in --from (run \`pnpm pack:all\` in the skilltree checkout).`);
    return `file:${tarball}`;
  }
  const version = options.versions.skilltree[name];
  if (!version) throw new Error(`create-skilltree does not know a version of ${name}.`);
  return `^${version}`;
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}

/** The new project's package.json, as an object. */
export function packageJson(options: TemplateOptions): Record<string, unknown> {
  const { tools } = options.versions;
  const dependencies: Record<string, string> = { react: tools.react, zod: tools.zod };
  const scripts: Record<string, string> = {
    dev: 'skilltree dev agent.tsx',
    chat: 'skilltree chat agent.tsx',
    demo: 'skilltree run agent.tsx',
    test: 'vitest run',
    typecheck: 'tsc --noEmit',
  };
  const runtime = [...RUNTIME];
  const major = options.nodeMajor ?? nodeMajor();
  const context = {
    versions: tools,
    nodeHasSqlite: options.nodeHasSqlite ?? true,
    aiSdk: aiSdkFor(major, options.versions),
  };
  const dev = [...DEV];
  for (const addon of options.addons ?? []) {
    const added = ADDON_SPECS[addon];
    (added.dev ? dev : runtime).push(...added.skilltree);
    Object.assign(dependencies, added.dependencies(context));
    Object.assign(scripts, added.scripts);
  }
  for (const name of runtime) dependencies[name] = spec(name, options);
  const devDependencies: Record<string, string> = {
    '@types/node': typesNodeFor(
      major,
      options.versions.typesNode ?? { [tools['@types/node'].split('.')[0]]: tools['@types/node'] },
    ),
    '@types/react': tools['@types/react'],
    tsx: tools.tsx,
    typescript: tools.typescript,
    vitest: tools.vitest,
  };
  for (const name of dev) devDependencies[name] = spec(name, options);
  const manifest: Record<string, unknown> = {
    name: options.name,
    version: '0.0.0',
    private: true,
    type: 'module',
    engines: { node: '>=20' },
    scripts,
    dependencies: sorted(dependencies),
    devDependencies: sorted(devDependencies),
    // npm 11 asks before running dependencies' install scripts: these two are expected (esbuild,
    // under tsx, checks its binary; better-sqlite3, on Node 20 only, fetches or builds its own).
    allowScripts: sorted({
      esbuild: true,
      ...(dependencies['better-sqlite3'] ? { 'better-sqlite3': true } : {}),
    }),
  };
  if (options.source.kind === 'tarballs') {
    // Every @skilltree package, also the ones pulled in by others (the CLI needs @skilltree/models),
    // resolves to its tarball: none of them is looked up on the registry.
    const overrides = sorted(
      Object.fromEntries(Object.keys(options.source.tarballs).map((name) => [name, spec(name, options)])),
    );
    manifest.overrides = overrides;
    manifest.pnpm = { overrides };
  }
  return manifest;
}

const AGENT = `import { Agent, Instructions, Skill, scriptedModel, Text, Tool, createAgentStore, useAgentStore } from '@skilltree/core';
import { z } from 'zod';

/**
 * A store outlives the skill: one instance per session, kept when the skill unloads.
 * (\`useState\` in a skill is for what the skill may forget.)
 */
export const todos = createAgentStore('todos', () => ({ items: [] as string[] }));

function Todos() {
  const items = useAgentStore(todos, (state) => state.items);
  return (
    <>
      <Instructions>Keep items short. Confirm each item you add.</Instructions>
      <Text>Todo: {items.length > 0 ? items.join('; ') : 'nothing yet'}</Text>
      <Tool
        name="add_todo"
        description="Add an item to the todo list"
        input={z.object({ text: z.string().min(1) })}
        run={({ text }, ctx) => {
          todos.of(ctx).setState((state) => ({ items: [...state.items, text] }));
          return \`Added: \${text}\`;
        }}
      />
      {items.length > 0 && (
        <Tool
          name="clear_todos"
          description="Empty the todo list"
          run={(_input, ctx) => {
            todos.of(ctx).setState({ items: [] });
            return 'The list is empty.';
          }}
        />
      )}
    </>
  );
}

/** The agent: the model sees the \`todos\` skill in its catalog and loads it with \`read_skill\`. */
export function TodoAgent() {
  return (
    <Agent>
      <Instructions>You are a helpful assistant.</Instructions>
      <Skill name="todos" description="Keep a todo list">
        <Todos />
      </Skill>
    </Agent>
  );
}

export default TodoAgent;

/**
 * A scripted conversation: what \`npm run chat\`, \`npm run dev\` and \`npm run demo\` play when no
 * ANTHROPIC_API_KEY or OPENAI_API_KEY is set.
 */
export const demo = {
  messages: ['Remind me to water the plants'],
  model: () =>
    scriptedModel([
      { toolCalls: [{ name: 'read_skill', input: { name: 'todos' } }] },
      { toolCalls: [{ name: 'add_todo', input: { text: 'water the plants' } }] },
      { text: 'Added "water the plants" to your todo list.' },
    ]),
};
`;

const TEST = `import { textOf } from '@skilltree/core';
import { cleanup, renderAgent } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { demo, TodoAgent, todos } from './agent.js';

afterEach(cleanup);

test('add_todo adds an item; the context shows it and clear_todos appears', async () => {
  const agent = renderAgent(<TodoAgent />);
  expect(agent).not.toHaveTool('add_todo'); // the skill is not loaded yet

  await agent.readSkill('todos');
  expect(agent).toHaveActiveSkill('todos');
  expect(agent).not.toHaveTool('clear_todos');

  const result = await agent.callTool('add_todo', { text: 'buy milk' });

  expect(textOf(result)).toMatch(/^Added: buy milk/);
  expect(agent).toHaveContext('Todo: buy milk');
  expect(agent).toHaveTool('clear_todos');
  expect(agent.session.store(todos).getState().items).toEqual(['buy milk']);
});

test('an empty item is refused, and run is not called', async () => {
  const agent = renderAgent(<TodoAgent />);
  await agent.readSkill('todos');

  const result = await agent.callTool('add_todo', { text: '' });

  expect(result.isError).toBe(true);
  expect(agent).toHaveContext('Todo: nothing yet');
});

test('the demo conversation, played by its scripted model', async () => {
  const agent = renderAgent(<TodoAgent />, { model: demo.model() });

  const turn = await agent.say(demo.messages[0]);

  expect(turn.text).toBe('Added "water the plants" to your todo list.');
  expect(agent).toHaveLoadedSkill('todos');
  expect(agent.session.store(todos).getState().items).toEqual(['water the plants']);
});
`;

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023", "DOM"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "jsx": "react-jsx",
    "strict": true,
    "noEmit": true,
    "isolatedModules": true,
    "verbatimModuleSyntax": true,
    "types": ["node"]
  },
  "include": ["**/*.ts", "**/*.tsx"],
  "exclude": ["node_modules"]
}
`;

const GITIGNORE = `node_modules
.skilltree
*.log
`;

function run(pm: TemplateOptions['packageManager'], script: string): string {
  if (pm === 'npm') return script === 'test' ? 'npm test' : `npm run ${script}`;
  return `${pm} ${script}`;
}

const VITEST_CONFIG = `import type { ViteUserConfig } from 'vitest/config';

// This project's own test config. Without one, vitest takes the first config file it finds in the
// folders above, and a vite.config.ts there (a web app's, say) can leave these tests out.
export default {
  test: { include: ['**/*.test.{ts,tsx}'], exclude: ['**/node_modules/**'] },
} satisfies ViteUserConfig;
`;

/** What each file of the plain project is, for the README and the summary create-skilltree prints. */
const BASE_FILES: Record<string, string> = {
  'package.json': 'dependencies and scripts',
  'agent.tsx': 'the agent: one skill (`todos`) and a store that outlives it',
  'agent.test.tsx': 'its tests, with `@skilltree/testing` and vitest',
  'tsconfig.json': 'strict TypeScript (no skipLibCheck)',
  'vitest.config.ts': "the tests' own config (a parent folder's vite.config.ts cannot capture them)",
  'README.md': 'how to run it',
  '.gitignore': 'node_modules and .skilltree (local sessions)',
};

/** Every file the project gets, path → what it is (the example files of each addon included). */
export function describeFiles(options: Pick<TemplateOptions, 'addons'>): Record<string, string> {
  const described = { ...BASE_FILES };
  for (const addon of options.addons ?? []) Object.assign(described, ADDON_SPECS[addon].describe);
  return described;
}

function readme(options: TemplateOptions): string {
  const pm = options.packageManager;
  const files = Object.entries(describeFiles(options)).filter(
    ([file]) => !['package.json', 'README.md', '.gitignore'].includes(file),
  );
  const commands: [string, string][] = [
    [run(pm, 'test'), 'the tests (vitest)'],
    [run(pm, 'typecheck'), 'tsc, strict'],
    [run(pm, 'chat'), 'chat in the terminal'],
    [run(pm, 'dev'), 'the playground: the request exactly as the model receives it'],
    [run(pm, 'demo'), 'one turn of the scripted demo, the reply on stdout'],
  ];
  if (options.addons?.includes('server')) {
    commands.push([run(pm, 'serve'), "the agent behind useChat's API on http://127.0.0.1:3000/api/chat"]);
  }
  if (options.addons?.includes('evals')) {
    commands.push([run(pm, 'eval'), 'the evals (agent.eval.tsx): the table on stdout, exit 1 when a threshold fails']);
  }
  const width = Math.max(...commands.map(([command]) => command.length)) + 2;
  return `# ${options.name}

An LLM agent written with [skilltree](https://github.com/skilltree/skilltree): skills are React
components, and what they render is the prompt.

${files.map(([file, what]) => `- \`${file}\`: ${what}.`).join('\n')}

\`\`\`sh
${commands.map(([command, what]) => `${command.padEnd(width)}# ${what}`).join('\n')}
\`\`\`

Without \`ANTHROPIC_API_KEY\` or \`OPENAI_API_KEY\`, \`chat\`, \`dev\` and \`demo\` play the scripted
\`demo\` exported by \`agent.tsx\`. With a key they talk to the real model:
\`ANTHROPIC_API_KEY=sk-ant-... ${run(pm, 'chat')}\`.

To run a \`.tsx\` file of your own, use tsx (installed): \`npx tsx script.tsx\`.
`;
}

/** Every file of the new project, path → content. */
export function projectFiles(options: TemplateOptions): Record<string, string> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(packageJson(options), null, 2)}\n`,
    'agent.tsx': AGENT,
    'agent.test.tsx': TEST,
    'tsconfig.json': TSCONFIG,
    'vitest.config.ts': VITEST_CONFIG,
    'README.md': readme(options),
    '.gitignore': GITIGNORE,
  };
  for (const addon of options.addons ?? []) Object.assign(files, ADDON_SPECS[addon].files);
  return files;
}
