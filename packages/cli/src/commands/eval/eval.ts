/**
 * `skilltree eval <file>`: loads the module, finds its eval suites, runs them with
 * `@skilltree/evals` (the copy the module resolves, so that its agents and the sessions share one
 * `@skilltree/core`), prints progress on stderr and the table (or JSON) on stdout.
 */
import { extname, resolve } from 'node:path';
import type { ModelChoice, RunEvalOptions } from '@skilltree/evals';
import { CliError, errorMessage, USAGE_ERROR } from '../../kit/errors.js';
import type { CliArgs } from '../../kit/flags.js';
import type { Io } from '../../kit/io.js';
import { type CoreModule, importModule } from '../../kit/load-module.js';
import { hasProviderKey, pickModel } from '../../kit/pick-model.js';
import { importNextTo } from '../../kit/resolve.js';

type EvalsModule = typeof import('@skilltree/evals');
type Suite = Parameters<EvalsModule['runEval']>[0];

const isSuite = (value: unknown): value is Suite =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { name?: unknown }).name === 'string' &&
  Array.isArray((value as { cases?: unknown }).cases);

/** The suites a module exports: its default export (one or a list), else every named export that is one. */
export function suitesOf(exports: Readonly<Record<string, unknown>>, file: string): Suite[] {
  const main = exports.default;
  if (Array.isArray(main) && main.length > 0 && main.every(isSuite)) return main;
  if (isSuite(main)) return [main];
  const named = Object.entries(exports)
    .filter(([key, value]) => key !== 'default' && isSuite(value))
    .map(([, value]) => value as Suite);
  if (named.length > 0) return named;
  throw new CliError(
    `${file} exports no eval suite. Export one: "export default defineEval({ name, agent, model, cases })" (defineEval from @skilltree/evals).`,
  );
}

/** The report file for suite `index` of `count`: the name as given, numbered when there are several suites. */
function reportFile(file: string, index: number, count: number, cwd: string): string {
  if (count === 1) return resolve(cwd, file);
  const ext = extname(file);
  return resolve(cwd, `${file.slice(0, file.length - ext.length)}-${index + 1}${ext}`);
}

/** Runs `eval`; resolves to the exit code. */
export async function evalCommandRun(args: CliArgs, io: Io): Promise<number> {
  if (args.record && args.replay) {
    throw new CliError('--record and --replay exclude each other: record once, then replay.', USAGE_ERROR);
  }
  const file = args.module as string;
  const exports = await importModule(file, io.cwd, 'Eval file');
  const suites = suitesOf(exports, file);
  const path = resolve(io.cwd, file);
  const evals =
    (await importNextTo(path, '@skilltree/evals', (m): m is EvalsModule => typeof m?.runEval === 'function')) ??
    (await import('@skilltree/evals'));
  const core =
    (await importNextTo(path, '@skilltree/core', (m): m is CoreModule => typeof m?.createSession === 'function')) ??
    (await import('@skilltree/core'));
  let model: ModelChoice | undefined;
  // --model replaces the suites' models; without it, a provider key in the environment stands in
  // for a suite that names none. A replay needs no model at all.
  if (args.model !== undefined || (!args.replay && hasProviderKey(io.env) && suites.some((s) => !s.model))) {
    const picked = await pickModel(args.model, { env: io.env, cwd: io.cwd, agent: { core, path } });
    if (picked.notice) io.stderr.write(`${picked.notice}\n`);
    model = () => picked.create();
  }
  const recordings: RunEvalOptions['recordings'] = args.record
    ? { dir: resolve(io.cwd, args.record), mode: 'record' }
    : args.replay
      ? { dir: resolve(io.cwd, args.replay), mode: 'replay' }
      : undefined;
  const reports = [];
  for (const suite of suites) {
    try {
      reports.push(
        await evals.runEval(suite, {
          ...(args.concurrency ? { concurrency: args.concurrency } : {}),
          ...(args.trials ? { trials: args.trials } : {}),
          ...(args.case?.length ? { cases: args.case } : {}),
          ...(args.variant?.length ? { variants: args.variant } : {}),
          ...(args.threshold?.length ? { thresholds: args.threshold } : {}),
          ...(model ? { model } : {}),
          ...(args.price ? { price: args.price.price } : {}),
          ...(recordings ? { recordings } : {}),
          onProgress: evals.progressPrinter(io.stderr),
        }),
      );
    } catch (error) {
      const hint = /No model for variant/.test(errorMessage(error))
        ? ' Pass --model (e.g. --model anthropic:claude-haiku-4-5), set a provider key, or --replay <dir>.'
        : '';
      throw new CliError(`The eval "${suite.name}" could not run: ${errorMessage(error)}${hint}`);
    }
  }
  for (const [i, report] of reports.entries()) {
    for (const target of args.report ?? []) {
      const out = reportFile(target, i, reports.length, io.cwd);
      evals.writeReport(report, out);
      io.stderr.write(`Wrote ${out}\n`);
    }
  }
  if (args.json) io.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  else io.stdout.write(reports.map((r) => evals.formatTable(r)).join('\n'));
  return reports.every((r) => r.passed) ? 0 : 1;
}
