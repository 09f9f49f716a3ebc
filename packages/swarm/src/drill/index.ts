export { DRILL_PLAN_ID, DRILL_POOLS, drillPlan } from './drill-scenario';
export { type DrillGate, type DrillReport, type RunDrillOptions, runDrill } from './run-drill';
