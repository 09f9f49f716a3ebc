// The pools of the pacing benchmarks: N pools, each with 3 windows, 3 in-flight records and 4
// recorded runs, from a seeded generator (mulberry32), so every run benchmarks the same pools.
export const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const MINUTE = 60_000;

// A small deterministic generator (mulberry32), so every run benchmarks the same pools.
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function makePools(count, seed) {
  const next = random(seed);
  const pools = [];
  for (let i = 0; i < count; i++) {
    const id = `pool-${String(i).padStart(5, '0')}`;
    const measured = next() < 0.5;
    pools.push({
      id,
      connectorId: `connector-${i % 7}`,
      providerFamily: `family-${i % 5}`,
      credentialGroup: id,
      enabled: next() < 0.95,
      lanes: ['analyze', 'build', 'chore'],
      capabilities: [],
      models: {
        low: { model: 'small', free: false },
        medium: { model: next() < 0.1 ? 'openrouter/qwen:free' : 'mid', free: false },
        high: { model: 'large', free: false },
      },
      pacingWindow: next() < 0.7 ? 'weekly' : 'monthly',
      hasFiveHourWindow: true,
      meter: {
        status: 'live',
        windows: [
          {
            kind: 'five_hour',
            usedPct: next() * 99,
            windowMinutes: 300,
            resetsAt: NOW + Math.floor(next() * 300) * MINUTE,
          },
          {
            kind: 'weekly',
            usedPct: next() * 99,
            windowMinutes: 10_080,
            resetsAt: NOW + Math.floor(next() * 10_080) * MINUTE,
          },
          {
            kind: 'monthly',
            usedPct: next() * 99,
            windowMinutes: 43_200,
            resetsAt: NOW + Math.floor(next() * 43_200) * MINUTE,
          },
        ],
      },
      spendRates: measured ? { five_hour: next(), weekly: next() / 10, monthly: next() / 40 } : {},
      inflight: [0, 1, 2].map((k) => ({
        id: `${id}-w${k}`,
        startedAt: NOW - Math.floor(next() * 30) * MINUTE,
        ...(k === 2 ? {} : { expectedMinutes: 5 + next() * 20 }),
      })),
      runs: [0, 1, 2, 3].map((k) => {
        const endedAt = NOW - (k + 1) * 90 * MINUTE;
        return {
          poolId: id,
          tier: k % 2 === 0 ? 'medium' : 'high',
          startedAt: endedAt - Math.floor(2 + next() * 20) * MINUTE,
          endedAt,
          stalled: k === 3,
          outcome: k === 3 ? 'stalled' : 'ok',
        };
      }),
    });
  }
  return pools;
}
