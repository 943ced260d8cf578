/**
 * `create-skilltree`: scaffolds a skilltree agent project.
 *
 * ```sh
 * npm create skilltree@latest my-agent
 * pnpm create skilltree my-agent
 * ```
 *
 * @packageDocumentation
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ADDON_SPECS, ADDONS, type Addon, nodeHasSqlite, parseAddons } from './addons.js';
import { describeFiles, projectFiles, type Source, type TemplateOptions } from './templates.js';
import { bundledVersions, nodeMajor, type Versions } from './versions.js';

export { ADDONS, type Addon, nodeHasSqlite, parseAddons } from './addons.js';
export type { Source, TemplateOptions } from './templates.js';
export { describeFiles, packageJson, projectFiles } from './templates.js';
export {
  AI_SDK_7,
  AI_SDK_7_NODE,
  type AiSdkVersions,
  aiSdkFor,
  bundledVersions,
  nodeMajor,
  TYPES_NODE,
  typesNodeFor,
  type Versions,
  workspaceVersions,
} from './versions.js';

/** A package manager the scaffolder knows. */
export type PackageManager = TemplateOptions['packageManager'];

/** Options of {@link createProject}. */
export interface CreateProjectOptions {
  /** Where to write the project (created when missing). */
  dir: string;
  /** The package name; defaults to the directory's name, made a valid npm name. */
  name?: string;
  /** A directory of tarballs from `pnpm pack:all`: the project installs those instead of the registry. */
  from?: string;
  /** Write into a directory that is not empty (existing files with the same names are replaced). */
  force?: boolean;
  packageManager?: PackageManager;
  /** Defaults to the versions this create-skilltree was built with. */
  versions?: Versions;
  /** Packages to add, each with its dependencies, an example and its test (`--with`). */
  addons?: readonly Addon[];
  /** Whether the project's Node has `node:sqlite`; default: this process's Node. */
  nodeHasSqlite?: boolean;
  /** The major version of the project's Node, for its `@types/node`; default: this process's Node. */
  nodeMajor?: number;
}

/** What {@link createProject} wrote. */
export interface CreatedProject {
  dir: string;
  name: string;
  /** Paths of the files written, relative to `dir`. */
  files: string[];
  /** The `dependencies` and `devDependencies` of the new package.json. */
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  packageManager: PackageManager;
}

/** A valid npm package name made from a directory name. */
export function toPackageName(dirName: string): string {
  const name = dirName
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+/, '')
    .replace(/-+$/, '');
  return name.length > 0 ? name.slice(0, 214) : 'my-agent';
}

/** The package manager that started this process (`npm create`, `pnpm create`, ...), npm by default. */
export function detectPackageManager(env: Record<string, string | undefined> = process.env): PackageManager {
  const agent = env.npm_config_user_agent ?? '';
  if (agent.startsWith('pnpm/')) return 'pnpm';
  if (agent.startsWith('yarn/')) return 'yarn';
  if (agent.startsWith('bun/')) return 'bun';
  return 'npm';
}

/** The tarballs of a `pnpm pack:all` directory, package name → absolute path (read from each tarball's file name). */
export function findTarballs(dir: string): Record<string, string> {
  const abs = resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new CliError(`--from: ${dir} is not a directory.`);
  const tarballs: Record<string, string> = {};
  for (const file of readdirSync(abs).sort()) {
    // pnpm pack names `@scope/name@1.2.3` as `scope-name-1.2.3.tgz`; skilltree's scope is `skilltree`.
    const match = /^skilltree-(.+)-(\d+\.\d+\.\d+(?:-[\w.]+)?)\.tgz$/.exec(file);
    if (match) tarballs[`@skilltree/${match[1]}`] = join(abs, file);
  }
  for (const needed of ['@skilltree/core', '@skilltree/testing', '@skilltree/cli']) {
    if (!tarballs[needed]) {
      throw new CliError(
        `--from: ${dir} has no tarball of ${needed}. Run \`pnpm pack:all\` in the skilltree checkout.`,
      );
    }
  }
  return tarballs;
}

/** An error the command prints as one line, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** Writes a new project into `options.dir`. Throws a {@link CliError} for a non-empty directory (without `force`). */
export function createProject(options: CreateProjectOptions): CreatedProject {
  const dir = resolve(options.dir);
  if (existsSync(dir)) {
    if (!statSync(dir).isDirectory()) throw new CliError(`${options.dir} exists and is not a directory.`);
    const present = readdirSync(dir).filter((f) => f !== '.git');
    if (present.length > 0 && !options.force) {
      throw new CliError(`${options.dir} is not empty (use --force to write into it anyway).`);
    }
  }
  const name = options.name ?? toPackageName(basename(dir));
  const source: Source = options.from
    ? { kind: 'tarballs', tarballs: findTarballs(options.from) }
    : { kind: 'registry' };
  const packageManager = options.packageManager ?? 'npm';
  const addons = options.addons ?? [];
  if (source.kind === 'tarballs') {
    for (const pkg of addons.flatMap((addon) => ADDON_SPECS[addon].skilltree)) {
      if (!source.tarballs[pkg]) {
        throw new CliError(
          `--from: ${options.from} has no tarball of ${pkg}. Run \`pnpm pack:all\` in the skilltree checkout.`,
        );
      }
    }
  }
  const files = projectFiles({
    name,
    versions: options.versions ?? bundledVersions(),
    source,
    packageManager,
    addons,
    nodeHasSqlite: options.nodeHasSqlite ?? nodeHasSqlite(),
    nodeMajor: options.nodeMajor ?? nodeMajor(),
  });
  mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), content);
  }
  const manifest = JSON.parse(files['package.json']) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  return {
    dir,
    name,
    files: Object.keys(files),
    dependencies: manifest.dependencies,
    devDependencies: manifest.devDependencies,
    packageManager,
  };
}

/** A version, or the tarball's file name for a `file:` spec (the full path is in package.json). */
function shownSpec(spec: string): string {
  return spec.startsWith('file:') ? `${basename(spec)} (from --from)` : spec;
}

/** The summary printed after writing: every file with what it is, then every dependency. */
export function summary(project: CreatedProject, addons: readonly Addon[] = []): string {
  const described = describeFiles({ addons });
  const width = (names: string[]) => Math.max(...names.map((n) => n.length)) + 2;
  const fileWidth = width(project.files);
  const lines = [`Created ${project.name} in ${project.dir}:`, ''];
  for (const file of project.files) lines.push(`  ${file.padEnd(fileWidth)}${described[file] ?? ''}`.trimEnd());
  for (const [title, deps] of [
    ['dependencies', project.dependencies],
    ['devDependencies', project.devDependencies],
  ] as const) {
    const names = Object.keys(deps);
    if (names.length === 0) continue;
    lines.push('', `${title}:`);
    for (const name of names) lines.push(`  ${name.padEnd(width(names))}${shownSpec(deps[name])}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Where {@link main} reads and writes. */
export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

function processIo(): Io {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** This package's version. */
export function version(): string {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

const HELP = `Usage: create-skilltree [directory] [options]

Writes a skilltree agent project: agent.tsx (one skill and a store), agent.test.tsx, tsconfig.json,
and the scripts dev (playground), chat, demo, test and typecheck. Asks nothing when the directory
is given. Prints every file and dependency it wrote.

Options:
  --with <list>     add packages, each with its dependencies, an example and its test:
                    ${ADDONS.join(', ')} (comma-separated, e.g. --with server,store)
  --name <name>     package name (default: the directory's name)
  --from <dir>      install @skilltree/* from the tarballs of \`pnpm pack:all\` in <dir>
                    instead of the registry (a project outside a skilltree checkout)
  --install         run the package manager's install when the files are written
  --pm <manager>    npm, pnpm, yarn or bun (default: the one that ran create-skilltree)
  --force           write into a directory that is not empty
  -h, --help        this help
  -v, --version     the version of create-skilltree
`;

async function ask(io: Io, question: string, fallback: string): Promise<string> {
  const rl = createInterface({ input: io.stdin, output: io.stderr as NodeJS.WritableStream });
  try {
    const answer = (await rl.question(`${question} (${fallback}) `)).trim();
    return answer || fallback;
  } finally {
    rl.close();
  }
}

function command(pm: PackageManager, script: string): string {
  if (pm === 'npm') return script === 'test' || script === 'install' ? `npm ${script}` : `npm run ${script}`;
  return `${pm} ${script}`;
}

/**
 * Runs the command with `argv` (the arguments after the script name) and resolves to the exit
 * code: 0 on success, 1 on an error, 2 on a usage error. Progress goes to stderr, the next steps to stdout.
 */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  try {
    let parsed: ReturnType<typeof parse>;
    try {
      parsed = parse(argv);
    } catch (error) {
      throw new CliError(`${error instanceof Error ? error.message : String(error)}\n\n${HELP}`, 2);
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout.write(HELP);
      return 0;
    }
    if (values.version) {
      io.stdout.write(`${version()}\n`);
      return 0;
    }
    if (positionals.length > 1) throw new CliError(`One directory, please (got ${positionals.join(', ')}).`, 2);
    let addons: Addon[];
    try {
      addons = parseAddons(values.with ?? []);
    } catch (error) {
      throw new CliError(error instanceof Error ? error.message : String(error), 2);
    }
    const pm = values.pm ?? detectPackageManager(io.env);
    if (!['npm', 'pnpm', 'yarn', 'bun'].includes(pm)) throw new CliError(`--pm: unknown package manager ${pm}.`, 2);
    let target = positionals[0];
    if (target === undefined) {
      target = io.stdin.isTTY === true ? await ask(io, 'Project directory:', 'my-agent') : 'my-agent';
    }
    const project = createProject({
      dir: resolve(io.cwd, target),
      name: values.name,
      from: values.from === undefined ? undefined : resolve(io.cwd, values.from),
      force: values.force,
      packageManager: pm as PackageManager,
      addons,
    });
    io.stdout.write(summary(project, addons));
    if (values.install) {
      io.stderr.write(`create-skilltree: ${command(project.packageManager, 'install')}\n`);
      const result = spawnSync(project.packageManager, ['install'], {
        cwd: project.dir,
        stdio: ['ignore', 'inherit', 'inherit'],
        shell: process.platform === 'win32',
      });
      if (result.status !== 0) throw new CliError(`${project.packageManager} install failed in ${project.dir}.`);
    }
    const rel = target;
    const steps = [
      `cd ${/\s/.test(rel) ? JSON.stringify(rel) : rel}`,
      ...(values.install ? [] : [command(project.packageManager, 'install')]),
      `${command(project.packageManager, 'test')}      # the tests`,
      `${command(project.packageManager, 'chat')}  # chat with the agent (scripted until a model key is set)`,
      `${command(project.packageManager, 'dev')}   # the playground`,
    ];
    io.stdout.write(`\nDone. Next:\n\n${steps.map((s) => `  ${s}`).join('\n')}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr.write(`create-skilltree: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`create-skilltree: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: 'string' },
      from: { type: 'string' },
      with: { type: 'string', multiple: true },
      install: { type: 'boolean' },
      pm: { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}
