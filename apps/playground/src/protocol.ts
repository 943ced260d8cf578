/** The wire protocol of `skilltree dev`; the server (packages/cli/src/dev) owns the definitions. */
export type {
  ChatNote,
  DevState,
  LineView,
  LiveEvent,
  Message,
  ModelRequest,
  ReloadInfo,
  SessionConfig,
  SkillView,
  TimelineEntry,
  ToolSpec,
  ToolView,
  TreeView,
  Warning,
} from '../../../packages/cli/src/dev/protocol.js';
