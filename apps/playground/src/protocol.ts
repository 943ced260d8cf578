/**
 * The wire protocol of `skilltree dev`: the CLI owns it and exports it as
 * `@skilltree/cli/dev-protocol`; the session travels as core's `SessionView`, as is.
 */
export type {
  ChatNote,
  CostStep,
  CostView,
  DevState,
  LiveEvent,
  Message,
  ModelRequest,
  Price,
  ReloadInfo,
  SessionConfig,
  SessionView,
  TimelineEntry,
  ToolSpec,
  Usage,
  ViewLine,
  ViewSection,
  ViewSkill,
  ViewTool,
  Warning,
} from '@skilltree/cli/dev-protocol';
