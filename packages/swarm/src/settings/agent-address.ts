import { SwarmInputError } from '../errors/swarm-input-error';
import { BULLSWARM_AGENT, type SwarmEnv } from './swarm-env';

/** The reserved address that resolves to a plan's current lead. */
export const LEAD_ADDRESS = 'lead';

const ADDRESS_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}$/;

const ADDRESS_EXPECTED =
  'an agent address: a letter or digit, then letters, digits, ".", "_", ":", "@", "+" or "-" (at most 128), e.g. lane-a or work1:codex';

/**
 * Checks an agent address. `lead` is reserved (it resolves to the current lead) unless `allowLead`.
 * @throws SwarmInputError naming `field`.
 */
export function checkAddress(
  value: string | undefined,
  field: string,
  options: { allowLead?: boolean } = {},
): string {
  if (value === undefined || value === '') throw new SwarmInputError({ field, expected: ADDRESS_EXPECTED });
  if (!ADDRESS_PATTERN.test(value))
    throw new SwarmInputError({ field, expected: ADDRESS_EXPECTED, received: value });
  if (value === LEAD_ADDRESS && !options.allowLead) {
    throw new SwarmInputError({
      field,
      expected: `an agent's own address ("${LEAD_ADDRESS}" is reserved: it resolves to the plan's current lead)`,
      received: value,
    });
  }
  return value;
}

/**
 * A comma-separated list of addresses (`deputy,lane-a`), each checked, duplicates refused. An
 * empty entry (`""`, `,`, `a,,b`) is refused too: an empty list never silently wipes a succession.
 */
export function parseAddressList(value: string | readonly string[] | undefined, field: string): string[] {
  if (value === undefined) return [];
  const parts = (typeof value === 'string' ? [value] : value)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim());
  if (parts.some((v) => v === '')) {
    throw new SwarmInputError({
      field,
      expected: 'comma-separated agent addresses, none of them empty (e.g. deputy,lane-a)',
      received: typeof value === 'string' ? value : value.join(','),
    });
  }
  const seen = new Set<string>();
  for (const part of parts) {
    checkAddress(part, field);
    if (seen.has(part)) {
      throw new SwarmInputError({ field, expected: 'each address once', received: parts.join(',') });
    }
    seen.add(part);
  }
  return parts;
}

/**
 * The address this process acts as: `explicit`, else `$BULLSWARM_AGENT`.
 * @throws SwarmInputError naming `field` when neither is set (or `BULLSWARM_AGENT` when its value is
 *   not an address).
 */
export function resolveSelfAddress(explicit: string | undefined, env: SwarmEnv, field = 'address'): string {
  if (explicit !== undefined && explicit !== '') return checkAddress(explicit, field);
  const fromEnv = env[BULLSWARM_AGENT];
  if (fromEnv !== undefined && fromEnv !== '') return checkAddress(fromEnv, BULLSWARM_AGENT);
  throw new SwarmInputError({
    field,
    expected: `the agent's address: give it, or run inside a bullswarm launch (which sets ${BULLSWARM_AGENT})`,
  });
}
