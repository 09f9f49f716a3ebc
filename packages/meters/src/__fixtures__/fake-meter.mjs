#!/usr/bin/env node
// A fake meter command for the `command` source tests (execa-style fixture subprocess).
// Usage: fake-meter.mjs <mode> [arg]
//   ok <json>        print <json> on stdout, exit 0
//   exit <code>      print "meter backend down" on stderr, exit <code>
//   hang             never exit (for the timeout test)
//   env <NAME>       print a reading whose usedPct is the number in $NAME
//   garbage          print text that is not JSON
//   slot <dir> <n>   join a rendezvous in <dir> (for readAll's bound): print a reading whose usedPct
//                    is the most meters seen running at once. The first <n> meters to start wait
//                    until <n> are running together (no clock decides it: a runner that starts <n> at
//                    once always gets there); later ones do not wait.
const [mode, arg] = process.argv.slice(2);
switch (mode) {
  case 'ok':
    process.stdout.write(`${arg}\n`);
    break;
  case 'exit':
    process.stderr.write('meter backend down\n');
    process.exit(Number(arg));
    break;
  case 'hang':
    setInterval(() => {}, 1000);
    break;
  case 'env':
    process.stdout.write(JSON.stringify({ windows: [{ kind: 'weekly', usedPct: Number(process.env[arg]) }] }));
    break;
  case 'slot': {
    const { mkdirSync, readdirSync, rmSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const bound = Number(process.argv[4]);
    // present/<pid>: running now (removed before the reading is printed); started/<pid>: ever started.
    const present = join(arg, 'present');
    const started = join(arg, 'started');
    mkdirSync(present, { recursive: true });
    mkdirSync(started, { recursive: true });
    const mine = join(present, String(process.pid));
    writeFileSync(mine, '');
    writeFileSync(join(started, String(process.pid)), '');
    const running = () => readdirSync(present).length;
    let most = running();
    // More than <n> started means a first meter has finished: this one is not among the first <n>.
    // The deadline only turns a runner that never starts <n> at once into a low number, not a hang.
    const deadline = Date.now() + 20_000;
    while (most < bound && readdirSync(started).length <= bound && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      most = Math.max(most, running());
    }
    // Linger a moment so a runner that starts more than <n> at once is seen doing it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    most = Math.max(most, running());
    rmSync(mine);
    process.stdout.write(JSON.stringify({ windows: [{ kind: 'weekly', usedPct: most }] }));
    break;
  }
  case 'garbage':
    process.stdout.write('usage: 42%\n');
    break;
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(64);
}
