#!/usr/bin/env node
// A fake meter command for the `command` source tests (execa-style fixture subprocess).
// Usage: fake-meter.mjs <mode> [arg]
//   ok <json>        print <json> on stdout, exit 0
//   exit <code>      print "meter backend down" on stderr, exit <code>
//   hang             never exit (for the timeout test)
//   env <NAME>       print a reading whose usedPct is the number in $NAME
//   garbage          print text that is not JSON
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
  case 'garbage':
    process.stdout.write('usage: 42%\n');
    break;
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exit(64);
}
