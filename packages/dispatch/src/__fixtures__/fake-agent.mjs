#!/usr/bin/env node
// A fake agent CLI for dispatch tests that bullswarm-sim does not cover (in the manner of execa's
// test/fixtures/*.js): `node fake-agent.mjs <mode> [prompt]`.
//   env             answers (text) with its environment as JSON
//   stdin           answers (text) with what it read from stdin, once stdin ends
//   limit-then-hang Claude stream-json: init + a rejected rate_limit_event (the shape of
//                   packages/connectors/src/__fixtures__/claude/usage-limit.jsonl), then hangs
//   ignore-term     prints a partial line, ignores SIGTERM, hangs (needs SIGKILL)
//   orphan-pipe     leaves a grandchild holding stdout, answers (text) and exits
//   codex-offline   Codex 0.171.0 `exec --json` without network: the lines it printed (captured,
//                   see README.md), then `Reconnecting... waiting for network` every 100 ms forever
//   codex-noise     Codex: thread.started, then only `Reconnecting... 2/5 (…)` error events every
//                   100 ms forever (noise that is not a network wait)
//   print           writes $FAKE_STDOUT and $FAKE_STDERR in pieces of $FAKE_PIECE characters (default
//                   7), 5 ms apart (so a token is cut by chunk boundaries); then exits 0, or hangs
//                   when $FAKE_HANG=1
import { spawn } from 'node:child_process';

const mode = process.argv[2];
const hang = () => setInterval(() => {}, 1 << 30);

switch (mode) {
  case 'print': {
    const piece = Number(process.env.FAKE_PIECE ?? 7);
    const pieces = (text) => {
      const out = [];
      for (let at = 0; at < text.length; at += piece) out.push(text.slice(at, at + piece));
      return out;
    };
    const queue = [
      ...pieces(process.env.FAKE_STDOUT ?? '').map((text) => [process.stdout, text]),
      ...pieces(process.env.FAKE_STDERR ?? '').map((text) => [process.stderr, text]),
    ];
    const next = () => {
      const item = queue.shift();
      if (item === undefined) {
        if (process.env.FAKE_HANG === '1') hang();
        return;
      }
      item[0].write(item[1]);
      setTimeout(next, 5);
    };
    next();
    break;
  }
  case 'env':
    process.stdout.write(`${JSON.stringify(process.env)}\n`);
    break;
  case 'stdin': {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => process.stdout.write(`stdin:[${Buffer.concat(chunks).toString('utf8')}]\n`));
    break;
  }
  case 'limit-then-hang': {
    const now = process.env.BULLSWARM_NOW ? Date.parse(process.env.BULLSWARM_NOW) : Date.now();
    const session = '5a0e7c1e-0b57-4c43-9d0c-2d1c1f5b6a11';
    const line = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
    line({ type: 'system', subtype: 'init', cwd: process.cwd(), session_id: session, model: 'sonnet', uuid: 'u0' });
    line({
      type: 'rate_limit_event',
      rate_limit_info: {
        status: 'rejected',
        resetsAt: Math.floor((now + 90 * 60_000) / 1000),
        rateLimitType: 'five_hour',
        overageStatus: 'rejected',
        isUsingOverage: false,
      },
      session_id: session,
      uuid: 'u1',
    });
    hang();
    break;
  }
  case 'ignore-term':
    process.on('SIGTERM', () => {});
    process.stdout.write('partial output\n');
    hang();
    break;
  case 'orphan-pipe': {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.unref();
    process.stderr.write(`fake-agent: grandchild pid ${child.pid}\n`);
    process.stdout.write('answered\n');
    break;
  }
  case 'codex-offline':
  case 'codex-noise': {
    const line = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
    const dns = 'stream disconnected before completion: failed to lookup address information: Name does not resolve';
    line({ type: 'thread.started', thread_id: '01a230bd-d35a-7973-9964-c90b74e458e4' });
    if (mode === 'codex-noise') {
      setInterval(() => line({ type: 'error', message: `Reconnecting... 2/5 (${dns})` }), 100);
      break;
    }
    line({
      type: 'item.completed',
      item: {
        id: 'item_0',
        type: 'error',
        message:
          'Model metadata for `gpt-5.1-codex` not found. Defaulting to fallback metadata; this can degrade performance and cause issues.',
      },
    });
    line({ type: 'turn.started' });
    for (const n of [2, 3, 4, 5]) line({ type: 'error', message: `Reconnecting... ${n}/5 (${dns})` });
    line({
      type: 'item.completed',
      item: { id: 'item_1', type: 'error', message: `Falling back from WebSockets to HTTPS transport. ${dns}` },
    });
    process.stderr.write(
      '2026-12-01T08:34:43.677909Z ERROR codex_api::endpoint::responses_websocket: failed to connect to Responses WebSocket stage=Unknown\n',
    );
    setInterval(
      () => line({ type: 'error', message: 'Reconnecting... waiting for network (Connection failed: error sending request)' }),
      100,
    );
    break;
  }
  default:
    process.stderr.write(`fake-agent: unknown mode ${JSON.stringify(mode)}\n`);
    process.exit(2);
}
