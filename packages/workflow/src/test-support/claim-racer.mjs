// A child process that races for run claims with the bundled engine (run-owner.test.ts).
//   node claim-racer.mjs <bundle.js>      ($BULLSWARM_HOME is the home; BULLSWARM_STORE_URL and
//                                         BULLSWARM_HOST_ID, when set, a shared store and this "host")
// Messages from the parent (IPC):
//   { type: 'claim', runId, at }  spin until Date.now() >= at, then claimRun; answers
//                                 { won: true, pid } or { won: false, kind, message }
//   { type: 'release', runId }    release the held claim; answers { released: true }
//   { type: 'exit' }              close the store and exit 0
const [bundle] = process.argv.slice(2);
const engine = await import(bundle);
const runtime = await engine.openRuntime({ env: process.env, createStore: true });
const store = await runtime.requireStore();
const held = new Map();
process.on('message', async (message) => {
  if (message.type === 'claim') {
    while (Date.now() < message.at) {
      // spin: the four racers claim within microseconds of each other
    }
    try {
      held.set(message.runId, await engine.claimRun(store, message.runId));
      process.send({ won: true, pid: process.pid });
    } catch (error) {
      process.send({ won: false, kind: error.kind, message: error.message });
    }
  } else if (message.type === 'release') {
    await held.get(message.runId)?.release();
    held.delete(message.runId);
    process.send({ released: true });
  } else if (message.type === 'exit') {
    await runtime.close();
    process.exit(0);
  }
});
process.send({ ready: true });
