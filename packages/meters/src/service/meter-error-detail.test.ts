import { describe, expect, it } from 'vitest';
import { MAX_METER_ERROR_DETAIL_CHARS, meterErrorDetail } from './meter-error-detail';

describe('meterErrorDetail', () => {
  it('keeps the message as the reader wrote it when it holds nothing secret', () => {
    const message =
      '/m.json is not a valid bullswarm meter reading: windows[0].resetsAt: expected epoch milliseconds';
    expect(meterErrorDetail({ message }, { HOME: '/home/me', CODEX_HOME: '/home/me/.codex' })).toBe(message);
  });

  it('replaces the values of credential-named env variables and Bearer values, longest first', () => {
    const env = {
      GITHUB_TOKEN: 'ghp_abcdefghijklmnop',
      GITHUB_TOKEN_PREFIX: 'ghp_abcd',
      DB_PASSWORD: 'hunter22hunter22',
      SHORT_SECRET: 'abc', // too short to redact safely
      PATH: '/usr/bin:/bin', // not a credential name
    };
    const detail = meterErrorDetail(
      {
        message:
          'meter command my-meter --key ghp_abcdefghijklmnop exited 1: auth hunter22hunter22 failed; ' +
          'sent Authorization: Bearer eyJhbGciOi.x.y; abc in /usr/bin:/bin',
      },
      env,
    );
    expect(detail).toBe(
      'meter command my-meter --key [redacted env:GITHUB_TOKEN] exited 1: auth [redacted env:DB_PASSWORD] failed; ' +
        'sent Authorization: Bearer [redacted]; abc in /usr/bin:/bin',
    );
  });

  it('cuts a long message to the maximum with an ellipsis', () => {
    const detail = meterErrorDetail({ message: 'x'.repeat(5000) });
    expect(detail).toHaveLength(MAX_METER_ERROR_DETAIL_CHARS);
    expect(detail.endsWith('…')).toBe(true);
  });
});
