import { BUILTIN_TIERS, type BullswarmRuntime } from '@bullswarm/dispatch';
import type { ValidateProgramOptions } from '../program/validate-program';

/**
 * The names a home knows, for `validateProgram`: its pool ids (`route.pools`) and their labels
 * (to say which id a label in `route.pools` means), the provider
 * families of its connectors (`route.providers`), and its effort tiers (the built-in low, medium,
 * high, every tier a connector's model profiles name, and every tier a pool sets a model for).
 */
export function homeValidationNames(
  runtime: BullswarmRuntime,
): Required<Pick<ValidateProgramOptions, 'pools' | 'poolLabels' | 'providers' | 'tiers'>> {
  const tiers = new Set<string>(BUILTIN_TIERS);
  const providers = new Set<string>();
  for (const connector of runtime.connectors.values()) {
    providers.add(connector.providerFamily);
    for (const tier of Object.keys(connector.modelProfiles)) tiers.add(tier);
  }
  for (const pool of runtime.state.pools) for (const tier of Object.keys(pool.models)) tiers.add(tier);
  return {
    pools: runtime.state.pools.map((pool) => pool.id),
    poolLabels: runtime.labels.labels,
    providers: [...providers].sort(),
    tiers: [...tiers].sort(),
  };
}
