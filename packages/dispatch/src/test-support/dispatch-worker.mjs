// A bullswarm process for the tests that kill one: `node dispatch-worker.mjs <dist index.js> <json>`
// where json is {home, env, request, ownSignalListener?}. It imports the bundled dispatch (built by the vitest global
// setup into test-results/worker/dist/), runs dispatchTask and prints every event, then the
// result, as JSON lines on stdout.
const [distIndex, json] = process.argv.slice(2);
const { openRuntime, dispatchTask } = await import(distIndex);
const { home, env, request, ownSignalListener } = JSON.parse(json);
// A program with its own SIGTERM listener decides itself whether to exit.
if (ownSignalListener) process.on('SIGTERM', () => process.stderr.write('worker: SIGTERM noted\n'));
const runtime = await openRuntime({ home, env, createStore: true });
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const result = await dispatchTask(runtime, { ...request, onEvent: print });
print({ type: 'result', result });
await runtime.close();
