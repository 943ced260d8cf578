/**
 * Skills: the catalog, which skills are loaded (LRU order), the active one, how often each mounted,
 * and each skill's `meta` (what an integration reports about it).
 */
import type { SessionView } from '../protocol.js';
import { Meta } from './Meta.js';
import { Panel } from './Panel.js';

export interface SkillsProps {
  /** Core's view of the session: the catalog, the loaded skills (LRU order) and the config. */
  view: Pick<SessionView, 'skills' | 'loadedSkills' | 'config'> | null;
}

export function Skills({ view }: SkillsProps) {
  const skills = view?.skills ?? [];
  const loaded = view?.loadedSkills ?? [];
  const config = view?.config;
  return (
    <Panel
      id="skills"
      title="Skills"
      extra={
        <span className="muted">
          {loaded.length} of {config?.maxLoadedSkills ?? '?'} loaded
        </span>
      }
    >
      <div className="lru" title="Loaded skills, least recently read first">
        <span className="muted">LRU: </span>
        {loaded.length === 0 ? (
          <span className="muted">none loaded — the model calls {config?.readToolName ?? 'read_skill'}</span>
        ) : (
          loaded.map((name, i) => (
            <span key={name}>
              {i > 0 ? <span className="muted"> → </span> : null}
              <span className={`badge ${i === loaded.length - 1 ? 'badge-active' : 'badge-loaded'}`}>{name}</span>
            </span>
          ))
        )}
        {loaded.length > 1 ? <span className="muted"> (next read unloads {loaded[0]} when full)</span> : null}
      </div>
      {skills.length === 0 ? (
        <p className="empty">This agent has no skills.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>skill</th>
              <th>state</th>
              <th title="Times the skill was mounted (read while unloaded)">mounts</th>
              <th>rendered by</th>
            </tr>
          </thead>
          <tbody>
            {skills.map((skill) => (
              <tr key={skill.name} data-skill={skill.name} data-state={skill.state}>
                <td>
                  <strong>{skill.name}</strong>
                  <div className="muted small">{skill.description}</div>
                  <Meta meta={skill.meta} label={`meta of ${skill.name}`} />
                </td>
                <td>
                  <span className={`badge badge-${skill.state}`}>{skill.state}</span>
                  {loaded.includes(skill.name) ? (
                    <span className="muted small"> #{loaded.indexOf(skill.name) + 1}</span>
                  ) : null}
                </td>
                <td className="num">{skill.mounts}</td>
                <td>
                  <code>&lt;{skill.owner}&gt;</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
