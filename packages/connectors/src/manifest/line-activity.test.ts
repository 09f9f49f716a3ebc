import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readFixture } from '../test-support/fixtures';
import { createLineActivity, eventNames } from './line-activity';
import { checkVersionRange, findVersion, satisfiesVersionRange } from './version-range';

const codex = JSON.parse(
  readFileSync(new URL('../../../../providers/codex/connector.json', import.meta.url), 'utf8'),
) as { activity: { progress: string[]; noise: string[]; networkWait: string[] } };
const claude = JSON.parse(
  readFileSync(new URL('../../../../providers/claude-code/connector.json', import.meta.url), 'utf8'),
) as { activity: { progress: string[]; noise?: string[] } };

describe('line activity (progress vs noise)', () => {
  it('names an event by its type and its subtype or item type', () => {
    expect(eventNames('{"type":"system","subtype":"api_retry"}')).toEqual(['system', 'system/api_retry']);
    expect(eventNames('{"type":"item.completed","item":{"type":"error"}}')).toEqual([
      'item.completed',
      'item.completed/error',
    ]);
    expect(eventNames('Reconnecting...')).toEqual([]);
  });

  it('Codex: agent items are progress; reconnects and error items are noise; waiting for network is a network wait', () => {
    const activity = createLineActivity(codex.activity)!;
    const kinds = readFixture('codex/success.jsonl')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => activity.classifyLine(line, 'stdout').kind);
    expect(kinds.every((kind) => kind === 'progress')).toBe(true);
    expect(
      activity.classifyLine(
        '{"type":"error","message":"Reconnecting... 2/5 (stream disconnected before completion: failed to lookup address information: Name does not resolve)"}',
        'stdout',
      ),
    ).toEqual({ kind: 'noise' });
    expect(
      activity.classifyLine(
        '{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `gpt-5.1-codex` not found."}}',
        'stdout',
      ),
    ).toEqual({ kind: 'noise' });
    expect(
      activity.classifyLine(
        '{"type":"error","message":"Reconnecting... waiting for network (Connection failed: error sending request)"}',
        'stdout',
      ),
    ).toEqual({ kind: 'network-wait', notice: 'Reconnecting... waiting for network' });
    // stderr is logs: never progress when the connector names its progress events.
    expect(activity.classifyLine('ERROR codex_api::endpoint::responses_websocket: failed', 'stderr')).toEqual(
      {
        kind: 'noise',
      },
    );
  });

  it('Claude Code: api_retry and rate_limit_event are noise, assistant and result are progress', () => {
    const activity = createLineActivity({ noise: [], networkWait: [], ...claude.activity })!;
    const lines = readFixture('claude/api-retry-then-429.jsonl').split('\n').filter(Boolean);
    expect(lines.map((line) => activity.classifyLine(line, 'stdout').kind)).toEqual([
      'progress',
      'noise',
      'noise',
      'noise',
      'progress',
    ]);
  });

  it('a manifest that names nothing has no activity (every byte restarts the clock)', () => {
    expect(createLineActivity(undefined)).toBeUndefined();
    expect(createLineActivity({ progress: [], noise: [], networkWait: [] })).toBeUndefined();
  });
});

describe('CLI version ranges', () => {
  it('finds the version in a CLI’s --version output and checks it against the range', () => {
    expect(findVersion('codex-cli 0.171.0')).toBe('0.171.0');
    expect(findVersion('2.1.332 (Claude Code)')).toBe('2.1.332');
    expect(satisfiesVersionRange('0.171.0', '>=0.171.0 <0.172.0')).toBe(true);
    expect(satisfiesVersionRange('0.172.0', '>=0.171.0 <0.172.0')).toBe(false);
    expect(satisfiesVersionRange('0.170.9', '>=0.171.0 <0.172.0')).toBe(false);
    expect(checkVersionRange('>=1.0.0 <2.0.0')).toBeUndefined();
    expect(checkVersionRange('^1.0.0')).toContain('"^1.0.0" is not a comparator');
  });
});
