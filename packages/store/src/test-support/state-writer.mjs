// A writer process of the kill -9 test: loops updateState, each time writing the next version of
// a large state.json, and prints the version number after each completed write.
// Usage: node state-writer.mjs <distIndex> <home> [count]
import { buildStateVersion } from './state-versions.mjs';

const [distIndex, home, countText] = process.argv.slice(2);
const { updateState } = await import(distIndex);
const count = countText === undefined ? Number.POSITIVE_INFINITY : Number(countText);

for (let written = 0; written < count; written++) {
  const state = updateState(home, (current) => {
    const previous = Number(current.pools[0]?.env?.SEQ ?? 0);
    return buildStateVersion(previous + 1);
  });
  process.stdout.write(`${state.pools[0].env.SEQ}\n`);
}
