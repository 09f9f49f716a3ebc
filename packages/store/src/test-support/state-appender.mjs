// A writer process of the lost-update test: appends `count` pools named after itself, one
// updateState call each. Usage: node state-appender.mjs <distIndex> <home> <writerId> <count>
const [distIndex, home, writerId, countText] = process.argv.slice(2);
const { updateState } = await import(distIndex);
for (let i = 0; i < Number(countText); i++) {
  updateState(home, (state) => {
    state.pools.push({
      id: `w${writerId}:p${i}`,
      connector: `w${writerId}`,
      account: `p${i}`,
      enabled: true,
      models: {},
      addedAt: '2026-01-01T00:00:00.000Z',
    });
  });
}
