// A child process that drives a workflow run with the bundled engine, for kill -9 tests.
//   node workflow-worker.mjs <bundle.js> start <programFile> <cwd>
//   node workflow-worker.mjs <bundle.js> resume <runId>
//   node workflow-worker.mjs <bundle.js> live <programFile> <cwd>   (start, drawing the live view on the TTY)
// The home is $BULLSWARM_HOME. Prints `run <runId>` when the run starts and `done <exitCode>` at the end.
const [bundle, mode, arg, cwd] = process.argv.slice(2);
const engine = await import(bundle);
const runtime = await engine.openRuntime({ env: process.env, createStore: true });
const onEvent = (event) => {
  if (event.type === 'run.started') process.stdout.write(`run ${event.runId}\n`);
};
let result;
if (mode === 'live') {
  const { program } = engine.loadProgramFile(arg);
  const view = new engine.TtyLiveView(process.stdout, {
    throttleMs: 50,
    reportPath: (state) => engine.runPaths(runtime.home.workflowsDir, state.runId).reportPath,
  });
  result = await engine.startWorkflow({
    runtime,
    program,
    programFile: arg,
    cwd,
    onEvent: (_event, state) => view.update(state),
  });
  view.finish(result.state);
  await runtime.close();
  process.exit(0);
} else if (mode === 'start') {
  const { program } = engine.loadProgramFile(arg);
  result = await engine.startWorkflow({ runtime, program, programFile: arg, cwd, onEvent });
} else {
  result = await engine.resumeWorkflow({ runtime, runId: arg, onEvent });
}
process.stdout.write(`done ${result.exitCode}\n`);
await runtime.close();
