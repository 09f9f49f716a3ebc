// A bullswarm-like process for the orphaned-worker test: opens the store from the built dist,
// lists the ledger (which reaps), prints how many entries are left, and calls process.exit()
// at once — as the CLI does when its command is done.
// Usage: node reap-and-exit.mjs <distIndex> <dbPath> <orphanGraceMs>
const [distIndex, dbPath, graceText] = process.argv.slice(2);
const { openStore } = await import(distIndex);
const store = openStore({ dbPath, orphanGraceMs: Number(graceText) });
const left = store.ledger.list().length;
store.close();
process.stdout.write(`${left}\n`);
process.exit(0);
