#!/usr/bin/env node
// A fake meter command for the `command` source tests (execa-style fixture subprocess).
// Usage: fake-meter.mjs <mode> [arg]
//   ok <json>        print <json> on stdout, exit 0
//   exit <code>      print "meter backend down" on stderr, exit <code>
//   hang             never exit (for the timeout test)
//   env <NAME>       print a reading whose usedPct is the number in $NAME
//   garbage          print text that is not JSON
//   slot <dir>       join a rendezvous in <dir>: wait (≤ 3 s) until 3 meters are present at once,
//                    then print a reading whose usedPct is the most seen present (for readAll's bound)
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
    mkdirSync(arg, { recursive: true });
    const mine = join(arg, String(process.pid));
    writeFileSync(mine, '');
    const deadline = Date.now() + 3000;
    let most = 0;
    while (Date.now() < deadline) {
      most = Math.max(most, readdirSync(arg).length);
      if (most >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    most = Math.max(most, readdirSync(arg).length);
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
