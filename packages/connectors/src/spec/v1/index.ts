export type {
  ConnectorV1,
  ConnectorV1AccountContext,
  ConnectorV1CliVersions,
  ConnectorV1ModelProfile,
} from './connector-v1';
export type { ConnectorV1Activity, ConnectorV1LineActivity } from './connector-v1-activity';
export type {
  ConnectorV1DetectContext,
  ConnectorV1DetectedAccount,
  ConnectorV1Detection,
} from './connector-v1-detect';
export type { ConnectorV1Invocation } from './connector-v1-invocation';
export type { ConnectorV1MeterSource, ConnectorV1MeterSourceType } from './connector-v1-meter-source';
export type {
  ConnectorV1ClassifyInput,
  ConnectorV1Outcome,
  ConnectorV1OutcomeKind,
} from './connector-v1-outcome';
export type {
  ConnectorV1Notice,
  ConnectorV1NoticeSource,
  ConnectorV1OutputParser,
  ConnectorV1ParsedOutput,
  ConnectorV1RateLimitEvent,
  ConnectorV1Usage,
} from './connector-v1-output-parser';
export type { ConnectorV1Request } from './connector-v1-request';
export type { ConnectorV1SignIn } from './connector-v1-sign-in';
