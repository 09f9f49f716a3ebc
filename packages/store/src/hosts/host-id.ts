import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { fsyncDirectory } from '@bullswarm/connectors/internal';
import { InvalidEnvironmentError } from '../errors/invalid-environment-error';

/** `BULLSWARM_HOST_ID`: this machine's id in a shared store (overrides `<home>/host-id`; tests give two). */
export const BULLSWARM_HOST_ID = 'BULLSWARM_HOST_ID';

/** A host id: 1–100 of letters, digits, `.`, `_`, `:`, `@`, `-`, starting with a letter or digit. */
export const HOST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$/;

/** The name of the file in the home that keeps the generated host id. */
export const HOST_ID_FILE = 'host-id';

/** Options of {@link resolveHostId}. */
export interface ResolveHostIdOptions {
  /** The bullswarm home whose `host-id` file keeps the id (created 0600 on first use). */
  readonly home?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Write the `host-id` file when it is missing (default true; read-only commands pass false). */
  readonly create?: boolean;
}

/**
 * This machine's id in the store: what every ledger entry, claim and (in phase 2) agent and lease
 * row records as its `host`. Entries of this host are judged by their process (pid and start
 * time); entries of any other host by their heartbeat alone.
 *
 * 1. `BULLSWARM_HOST_ID`, when set (two "hosts" on one machine in tests; a container that wants a
 *    fixed name);
 * 2. else the home's `host-id` file, written once as `<hostname>-<8 hex>` (the hostname for people
 *    reading `assignments --json`, the random part because hostnames repeat across machines:
 *    `localhost`, `laptop`, CI runners). It is created exclusively (a temp file linked into place),
 *    so processes starting at once agree on one id;
 * 3. else (no home, or a home that cannot be written) the hostname itself, not kept.
 *
 * A home copied to another machine carries its id along: delete `host-id` there (the store would
 * otherwise judge the other machine's entries by pids it cannot see).
 *
 * @throws InvalidEnvironmentError when `BULLSWARM_HOST_ID` is set but not a valid id.
 */
export function resolveHostId(options: ResolveHostIdOptions = {}): string {
  const env = options.env ?? process.env;
  const fromEnv = env[BULLSWARM_HOST_ID];
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!HOST_ID_PATTERN.test(fromEnv)) {
      throw new InvalidEnvironmentError({
        variable: BULLSWARM_HOST_ID,
        value: fromEnv,
        expected:
          'an id of 1–100 letters, digits, ".", "_", ":", "@" or "-", starting with a letter or digit',
      });
    }
    return fromEnv;
  }
  const fallback = legacyHostId();
  if (options.home === undefined) return fallback;
  const file = join(options.home, HOST_ID_FILE);
  const kept = readHostIdFile(file);
  if (kept !== undefined || options.create === false) return kept ?? fallback;
  try {
    mkdirSync(options.home, { recursive: true, mode: 0o700 });
    return createHostIdFile(file, `${fallback.slice(0, 80)}-${randomBytes(4).toString('hex')}`);
  } catch {
    return fallback;
  }
}

/** The hostname as a host id (what entries recorded before host ids carry as their `host`). */
export function legacyHostId(): string {
  const cleaned = hostname()
    .replace(/[^A-Za-z0-9._:@-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  return cleaned === '' ? 'localhost' : cleaned.slice(0, 100);
}

function readHostIdFile(file: string): string | undefined {
  try {
    const text = readFileSync(file, 'utf8').trim();
    return HOST_ID_PATTERN.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `id` to `file` unless another process got there first; returns the id in the file. */
function createHostIdFile(file: string, id: string): string {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${id}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
    fsyncDirectory(dirname(file));
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const kept = readHostIdFile(file);
    if (kept === undefined) throw error;
    return kept;
  } finally {
    unlinkSync(temp);
  }
}
