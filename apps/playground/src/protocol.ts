/**
 * The wire protocol of `skilltree dev`: the CLI owns it and exports it as
 * `@skilltree/cli/dev-protocol`; the session travels as core's `SessionView`, as is.
 */
export type {
  AppendOnlyItem,
  AppendOnlyRequest,
  ChatNote,
  CostStep,
  CostView,
  DevState,
  LiveEvent,
  Message,
  ModelRequest,
  PrefixChange,
  Price,
  ReloadInfo,
  SessionConfig,
  SessionView,
  SystemNote,
  TimelineEntry,
  ToolSpec,
  Usage,
  ViewLine,
  ViewSection,
  ViewSkill,
  ViewTool,
  Warning,
} from '@skilltree/cli/dev-protocol';
