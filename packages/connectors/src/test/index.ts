export { ConformanceError } from './conformance-error';
export {
  type ConformanceCheck,
  type ConformanceSample,
  type ConformanceSamples,
  type ConnectorConformanceOptions,
  connectorConformanceChecks,
} from './connector-conformance';
