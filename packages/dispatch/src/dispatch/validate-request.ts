import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { LANES } from '@bullswarm/pacing';
import { resolvePoolRef, UnknownPoolError } from '@bullswarm/store';
import { ACTION_PATTERN } from '../attempt/attempt-files';
import { DispatchError } from '../errors/dispatch-error';
import type { BullswarmRuntime } from '../runtime/open-runtime';
import type { DispatchRequest } from './dispatch-types';

const PIN_SOURCES = ['operator', 'step-restart', 'gate-retry'] as const;

function invalid(field: string, expected: string, received: unknown): DispatchError {
  return new DispatchError({ reason: 'invalid-request', field, expected, received });
}

function requireDirectory(field: string, path: unknown): void {
  if (typeof path !== 'string' || !isAbsolute(path)) throw invalid(field, 'an absolute path', path);
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw invalid(field, 'an existing directory', path);
}

function nonNegativeInteger(field: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw invalid(field, 'a whole number, 0 or more', value);
  }
}

/**
 * Checks a request before anything is routed or spawned, and resolves a pin given as a label to
 * the pool id. Creates `outputDir` when missing.
 *
 * @returns the pinned pool id (undefined without a pin)
 * @throws DispatchError naming the field (`request.cwd`, `request.pin.poolId`, …) and what would be valid
 */
export function validateDispatchRequest(
  runtime: BullswarmRuntime,
  request: DispatchRequest,
): string | undefined {
  if (typeof request !== 'object' || request === null) throw invalid('request', 'an object', request);
  if (typeof request.action !== 'string' || !ACTION_PATTERN.test(request.action)) {
    throw invalid(
      'request.action',
      'a name usable in a file name: letters, digits, ".", "_" and "-", not starting with "." or "-"',
      request.action,
    );
  }
  if (typeof request.prompt !== 'string' || request.prompt.trim() === '') {
    throw invalid('request.prompt', 'a non-empty string', request.prompt);
  }
  if (!LANES.includes(request.lane))
    throw invalid('request.lane', `one of ${LANES.join(', ')}`, request.lane);
  if (request.tier !== undefined && (typeof request.tier !== 'string' || request.tier.trim() === '')) {
    throw invalid('request.tier', 'an effort tier name such as low, medium or high', request.tier);
  }
  if (request.kind !== 'single-run' && request.kind !== 'workflow-step') {
    throw invalid('request.kind', 'single-run or workflow-step', request.kind);
  }
  requireDirectory('request.cwd', request.cwd);
  (request.addDirs ?? []).forEach((dir, index) => {
    requireDirectory(`request.addDirs[${index}]`, dir);
  });
  if (typeof request.outputDir !== 'string' || !isAbsolute(request.outputDir)) {
    throw invalid('request.outputDir', 'an absolute path', request.outputDir);
  }
  try {
    mkdirSync(request.outputDir, { recursive: true, mode: 0o700 });
    accessSync(request.outputDir, constants.W_OK);
  } catch (error) {
    throw new DispatchError({
      reason: 'invalid-request',
      field: 'request.outputDir',
      expected: 'a directory bullswarm can create and write',
      received: request.outputDir,
      message: `request.outputDir: cannot write ${request.outputDir} (${(error as Error).message}); expected a directory bullswarm can create and write`,
    });
  }
  nonNegativeInteger('request.retryAttempts', request.retryAttempts);
  nonNegativeInteger('request.previousAttempts', request.previousAttempts);
  if (
    request.throttlePolicy !== undefined &&
    request.throttlePolicy !== 'record' &&
    request.throttlePolicy !== 'backoff'
  ) {
    throw invalid('request.throttlePolicy', 'record or backoff', request.throttlePolicy);
  }
  if (
    request.timeoutSec !== undefined &&
    (typeof request.timeoutSec !== 'number' ||
      !Number.isFinite(request.timeoutSec) ||
      request.timeoutSec <= 0)
  ) {
    throw invalid('request.timeoutSec', 'a positive number of seconds', request.timeoutSec);
  }
  (request.excludedPools ?? []).forEach((entry, index) => {
    if (typeof entry?.poolId !== 'string' || typeof entry?.reason !== 'string') {
      throw invalid(`request.excludedPools[${index}]`, '{ poolId: string, reason: string }', entry);
    }
  });
  if (request.pin === undefined) return undefined;
  if (!PIN_SOURCES.includes(request.pin.source)) {
    throw invalid('request.pin.source', PIN_SOURCES.join(', '), request.pin.source);
  }
  const ref = request.pin.poolId;
  try {
    return resolvePoolRef(ref, runtime.state, runtime.labels);
  } catch (error) {
    if (!UnknownPoolError.isInstance(error)) throw error;
    const ids = runtime.state.pools.map((pool) => pool.id);
    const expected =
      ids.length === 0 ? 'a pool id (this home has no pools)' : `a pool id or label: ${ids.join(', ')}`;
    throw new DispatchError({
      reason: 'unknown-pool',
      field: 'request.pin.poolId',
      expected,
      received: ref,
      message: `request.pin.poolId: no pool "${ref}" in ${runtime.home.home}/state.json; expected ${expected}`,
    });
  }
}
