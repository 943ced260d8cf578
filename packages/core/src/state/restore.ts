/**
 * Restoring a snapshot's records: the loaded order (known skills mount, the newest first; the rest
 * are recorded as unloaded), the lifecycle log the model was told (checked before anything is sent
 * from it), and the baseline that `contextChanged` lines are the diff against.
 */
import { lifecycleLogProblem } from '../lifecycle/check.js';
import { skillChange } from '../lifecycle/context-changes.js';
import { adoptMounts, createLog } from '../lifecycle/log.js';
import { config } from './config.js';
import { warn } from './events.js';
import { sections } from './record.js';
import { type SessionState, tree } from './state.js';
import { notifySkills, recordMount } from './sync.js';

/**
 * Loads the skills a snapshot names, in their order, up to `maxLoadedSkills` (the newest); a name
 * the tree does not have, or one over the limit, is recorded as unloaded. Then checks the restored
 * log and adopts the mounts it announced, so they are not announced again.
 */
export function restoreSkills(state: SessionState, names: readonly string[]): void {
  const snap = tree(state);
  const unique = [...new Set(names)];
  const known = unique.filter((name) => snap.skillsByName.has(name));
  for (const name of unique) if (!snap.skillsByName.has(name)) state.told.pending.push(skillChange(name, 'unloaded'));
  const max = config(state).maxLoadedSkills;
  state.skills.loaded = known.slice(-max);
  for (const name of known.slice(0, -max)) state.told.pending.push(skillChange(name, 'unloaded'));
  for (const name of state.skills.loaded) recordMount(state, name);
  notifySkills(state);
  checkLog(state);
  // The skills mounted again are the ones the log announced, not remounts to announce again.
  state.told.log = adoptMounts(state.told.log, state.skills.mounts);
}

/** The context as it is now becomes what the next `contextChanged` lines are the diff against. */
export function resetBaseline(state: SessionState): void {
  state.told.baseline = sections(state);
}

/**
 * Drops a restored lifecycle log the session could not have recorded (see `lifecycleLogProblem`),
 * with a warning that says which rule it broke: the loaded skills are then stated again with the
 * next message, as for a snapshot without a log, so no delta of it is ever sent.
 */
function checkLog(state: SessionState): void {
  const { data } = state.told.log;
  if (data.base.length === 0 && data.records.length === 0) return;
  const cfg = config(state);
  const problem = lifecycleLogProblem(data, {
    snap: tree(state),
    readToolName: cfg.readToolName,
    contextLineLimit: cfg.contextLineLimit,
    messages: state.window.transcript.messages,
    start: state.window.transcript.start,
  });
  if (problem === null) return;
  state.told.log = createLog();
  warn(
    state,
    `The saved lifecycle log was not used (${problem}): the loaded skills are stated again with the next message.`,
    'restoreSession',
  );
}
