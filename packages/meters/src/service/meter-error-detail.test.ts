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

  it("redacts every token shape and the credential values of the process's and the pool's environment", () => {
    // Planted values are assembled at run time so this file carries no token-shaped literal.
    const github = `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`;
    const anthropic = `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`;
    const aws = `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`;
    // The environment of a read: the base environment with the pool's account environment over it.
    const env = { MY_DEPLOY_TOKEN: 'process-secret-value-77', ACME_API_KEY: 'pool-secret-value-zz9' };
    const detail = meterErrorDetail(
      {
        message: `meter command failed: ${github} ${anthropic} ${aws} process-secret-value-77 pool-secret-value-zz9`,
      },
      env,
    );
    expect(detail).toBe(
      'meter command failed: [redacted github-token] [redacted anthropic-key] [redacted aws-access-key] [redacted env:MY_DEPLOY_TOKEN] [redacted env:ACME_API_KEY]',
    );
  });

  it('cuts a long message to the maximum with an ellipsis', () => {
    const detail = meterErrorDetail({ message: 'x'.repeat(5000) });
    expect(detail).toHaveLength(MAX_METER_ERROR_DETAIL_CHARS);
    expect(detail.endsWith('…')).toBe(true);
  });
});
