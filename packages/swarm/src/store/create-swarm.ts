import { createRedactor, type Redactor } from '@bullswarm/connectors/redact';
import { type AsyncBullswarmStore, createClock } from '@bullswarm/store';
import { type AgentRegistry, createAgentRegistry } from '../agents/agent-registry';
import { createEscalationBook, type EscalationBook } from '../escalations/escalation-book';
import { createHandoffBook, type HandoffBook } from '../handoff/handoff-book';
import { createLeadBook, type LeadBook } from '../leads/lead-book';
import { createLeaseBook, type LeaseBook } from '../leases/lease-book';
import { createNoticeBox, type NoticeBox } from '../notices/notice-box';
import { createParkBook, type ParkBook } from '../parks/park-book';
import { resolveSwarmSettings, type SwarmEnv, type SwarmSettings } from '../settings/swarm-env';
import { createTaskBook, type TaskBook } from '../tasks/task-book';
import type { SwarmContext } from './swarm-context';
import { swarmMigrations } from './swarm-migrations';
import { processRedactor } from './swarm-redactor';

/** The stores whose `swarm` migrations this process has applied (or found applied). */
const migrated = new WeakSet<AsyncBullswarmStore>();

/** Options of {@link createSwarm}. */
export interface CreateSwarmOptions {
  /**
   * The shared store (`openHomeStore(home)` or a runtime's `requireStore()`), on either engine; its
   * swarm tables are created once across all processes and hosts.
   */
  readonly store: AsyncBullswarmStore;
  /** The environment the swarm clocks are read from (default `process.env`). */
  readonly env?: SwarmEnv;
  /** Epoch ms (default `createClock(env)`, honouring `BULLSWARM_NOW`). */
  readonly clock?: () => number;
  /** Overrides of the environment's clocks (tests). */
  readonly settings?: Partial<SwarmSettings>;
  /** This machine's id in the store (default `store.hostId`). */
  readonly host?: string;
  /**
   * What notice and escalation text and journal entries pass through (`runtimeRedactor(runtime)` of
   * dispatch: the process's and every pool's credential values); default the token shapes and the
   * credential values of `env`.
   */
  readonly redactor?: Redactor;
}

/**
 * The swarm records of one store: agents and reachability, account leases, lead records with
 * epochs and fencing, notices, task executors and hysteresis, handoff packets and escalations.
 * Every process on the machine that opens the same home sees the same records.
 */
export interface Swarm {
  readonly context: SwarmContext;
  readonly agents: AgentRegistry;
  readonly leases: LeaseBook;
  readonly leads: LeadBook;
  readonly notices: NoticeBox;
  readonly tasks: TaskBook;
  readonly handoffs: HandoffBook;
  readonly escalations: EscalationBook;
  /** Plans parked for lack of capacity (no account with room resets within the horizon). */
  readonly parks: ParkBook;
}

/**
 * Opens the swarm over a store: applies the `swarm` migrations (once across all processes) and
 * returns the books. The store stays the caller's to close.
 *
 * @example
 * ```ts
 * const store = await openHomeStore(openHome(), { create: true });
 * const swarm = await createSwarm({ store });
 * await swarm.agents.register({ address: 'lead-1', pid: process.pid, poolId: 'claude-code:acme' });
 * const plan = await resolvePlanRef('drill', { cwd: process.cwd(), knownRepos: swarm.leads.knownRepos });
 * await swarm.leads.claim(plan, { address: 'lead-1', succession: ['deputy'] });
 * ```
 */
export async function createSwarm(options: CreateSwarmOptions): Promise<Swarm> {
  const env = options.env ?? process.env;
  const store = options.store;
  // Once per open store: a dashboard or MCP server opens the swarm per request.
  if (!migrated.has(store)) {
    await store.ensureMigrations(swarmMigrations);
    migrated.add(store);
  }
  const context: SwarmContext = {
    store,
    sql: store.sql,
    clock: options.clock ?? createClock(env),
    settings: { ...resolveSwarmSettings(env), ...options.settings },
    host: options.host ?? store.hostId,
    redact: options.redactor ?? (options.env === undefined ? processRedactor() : createRedactor([env])),
    tx: (fn) => store.sql.transaction(() => fn()),
  };
  const agents = createAgentRegistry(context);
  return {
    context,
    agents,
    leases: createLeaseBook(context),
    leads: createLeadBook(context, agents),
    notices: createNoticeBox(context),
    tasks: createTaskBook(context),
    handoffs: createHandoffBook(context),
    escalations: createEscalationBook(context),
    parks: createParkBook(context),
  };
}
