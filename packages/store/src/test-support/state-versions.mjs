// Deterministic, large state.json versions: version n is fully determined by n, so a reader can
// tell a whole written version from anything else.
export function buildStateVersion(n) {
  const poolCount = 40 + (n % 25);
  const pools = [];
  for (let i = 0; i < poolCount; i++) {
    pools.push({
      id: `connector-${i}:acct-${n}`,
      connector: `connector-${i}`,
      account: `acct-${n}`,
      enabled: i % 3 !== 0,
      models: { low: `model-${n}-${i}-low`, medium: null, high: `model-${n}-${i}-high` },
      env: { SEQ: String(n), PADDING: `${n}:${i}:`.padEnd(400, String.fromCharCode(97 + (n % 26))) },
      addedAt: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    });
  }
  return {
    version: 1,
    pools,
    assignments: { high: { pool: pools[1].id, model: `model-${n}-1-high` } },
    config: { inflightPenaltyPct: n % 7, connectors: [] },
  };
}
