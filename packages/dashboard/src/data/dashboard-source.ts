import { statSync } from 'node:fs';
import { createRedactor, MIN_CREDENTIAL_VALUE_LENGTH } from '@bullswarm/connectors/redact';
import { type BullswarmRuntime, type OpenRuntimeOptions, openRuntime } from '@bullswarm/dispatch/routing';
import { homePaths, resolveHome } from '@bullswarm/store';

/** Where the dashboard reads from: a home, its environment and clock. */
export interface DashboardSourceOptions {
  /** The state home (default `$BULLSWARM_HOME`, else `~/.bullswarm`). */
  readonly home?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly clock?: () => number;
  readonly userHome?: string;
  readonly projectDir?: string;
  readonly builtinProvidersDirectory?: string;
}

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * The home as the dashboard sees it: one runtime (config files, connectors, store, meters), opened
 * on first use and opened again when state.json or pool-labels.json changes or the store appears,
 * so pools added while the dashboard runs show without a restart.
 */
export class DashboardSource {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  private readonly options: DashboardSourceOptions;
  private runtime: BullswarmRuntime | undefined;
  private runtimeKey = '';
  private opening: Promise<BullswarmRuntime> | undefined;

  constructor(options: DashboardSourceOptions = {}) {
    this.options = options;
    this.env = options.env ?? process.env;
    this.home = options.home ?? resolveHome(this.env);
  }

  get paths() {
    return homePaths(this.home);
  }

  /** The options a new runtime of this home opens with (`createStore` for work that records). */
  runtimeOptions(createStore = false): OpenRuntimeOptions {
    const o = this.options;
    return {
      home: this.home,
      env: this.env,
      ...(o.clock === undefined ? {} : { clock: o.clock }),
      ...(o.userHome === undefined ? {} : { userHome: o.userHome }),
      ...(o.projectDir === undefined ? {} : { projectDir: o.projectDir }),
      ...(o.builtinProvidersDirectory === undefined
        ? {}
        : { builtinProvidersDirectory: o.builtinProvidersDirectory }),
      ...(createStore ? { createStore: true } : {}),
    };
  }

  private key(): string {
    const paths = this.paths;
    return [mtimeOf(paths.statePath), mtimeOf(paths.labelsPath), mtimeOf(paths.dbPath) >= 0].join('|');
  }

  /** The current runtime (reopened when the config files changed). */
  async current(): Promise<BullswarmRuntime> {
    const key = this.key();
    if (this.runtime !== undefined && key === this.runtimeKey) return this.runtime;
    if (this.opening !== undefined) return this.opening;
    this.opening = (async () => {
      try {
        const next = await openRuntime(this.runtimeOptions());
        await this.runtime?.close();
        this.runtime = next;
        this.runtimeKey = key;
        return next;
      } finally {
        this.opening = undefined;
      }
    })();
    return this.opening;
  }

  /** The clock of the home (honours `BULLSWARM_NOW`). */
  now(): number {
    return this.runtime?.clock() ?? this.options.clock?.() ?? Date.now();
  }

  /**
   * A JSON value with every secret in its strings redacted (keys included): token shapes and the
   * values of the credential variables of the environment and of every pool's account environment
   * (`createRedactor` of `@bullswarm/connectors/redact`, the one redactor). The one place every
   * dashboard response goes through.
   */
  redact<T>(value: T): T {
    const redactor = createRedactor([
      this.env,
      ...(this.runtime?.state.pools ?? []).map((pool) => pool.env ?? {}),
    ]);
    // No secret is shorter than a credential value may be (MIN_CREDENTIAL_VALUE_LENGTH).
    const candidates: string[] = [];
    const collect = (v: unknown): void => {
      if (typeof v === 'string') {
        if (v.length >= MIN_CREDENTIAL_VALUE_LENGTH) candidates.push(v);
      } else if (Array.isArray(v)) {
        for (const inner of v) collect(inner);
      } else if (v !== null && typeof v === 'object') {
        for (const [key, inner] of Object.entries(v)) {
          if (key.length >= MIN_CREDENTIAL_VALUE_LENGTH) candidates.push(key);
          collect(inner);
        }
      }
    };
    collect(value);
    // One pass over every string at once (NUL never occurs in a secret, an environment value or a
    // token pattern, so no match spans two strings): the common case, nothing to redact, costs one
    // call instead of one per string.
    const joined = candidates.join('\u0000');
    if (redactor.text(joined) === joined) return value;
    return redactor.value(value);
  }

  async close(): Promise<void> {
    const runtime = this.runtime;
    this.runtime = undefined;
    await runtime?.close();
  }
}
