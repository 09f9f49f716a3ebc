import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  credentialValues,
  redactSecrets,
  scanForSecrets,
  secretKindOf,
  shannonEntropy,
} from './redact-secrets';

// Planted values are assembled at run time so this file itself carries no token-shaped literal.
const planted = {
  openai: `sk-${'proj-'}${'A1b2C3d4E5f6G7h8I9j0K1l2M3n4'}`,
  anthropic: `sk-ant-${'api03-'}${'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2'}`,
  github: `gh${'p'}_${'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5'}`,
  githubPat: `github_${'pat'}_${'11ABCDEFG0123456789abcdefghij'}`,
  slack: `xo${'xb'}-${'1234567890-abcdefghij'}`,
  aws: `AK${'IA'}${'Q3EGRVZ5MNX7TY2K'}`,
  jwt: `ey${'J'}hbGciOiJIUzI1NiJ9.ey${'J'}zdWIiOiIxMjM0NTY3ODkwIn0.${'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'}`,
  privateKey: `-----BEGIN ${'OPENSSH'} PRIVATE KEY-----`,
  random: `${'Qm9vN2x'}${'XkR7pLz3WcTe8VbYh4Ju5Ns6Ma1Kd0Fg'}`,
};

describe('scanForSecrets', () => {
  it.each([
    ['openai-key', planted.openai],
    ['anthropic-key', planted.anthropic],
    ['github-token', planted.github],
    ['github-pat', planted.githubPat],
    ['slack-token', planted.slack],
    ['aws-access-key', planted.aws],
    ['jwt', planted.jwt],
    ['private-key', planted.privateKey],
    ['high-entropy', planted.random],
    ['high-entropy', `wJalrXUtnFEMI/K7MDENG/${'bPxRfiCYEXAMPLEKEY'}`],
    ['high-entropy', `https://files.example/wJalrXUtnFEMI/K7MDENG/${'bPxRfiCYEXAMPLEKEY'}`],
    ['high-entropy', `/Users/AnnaKowalski/keys/${planted.random}/id`],
  ])('finds a %s anywhere in a field', (kind, secret) => {
    const findings = scanForSecrets({ next: ['run the tests', `then export X=${secret} and retry`] });
    expect(findings).toEqual([{ path: 'next[1]', kind }]);
    expect(JSON.stringify(findings)).not.toContain(secret);
  });

  it('finds the value of a credential variable of the environment', () => {
    const env = { MY_SERVICE_TOKEN: 'plain-but-secret-value', DB_PASSWORD: 'hunter2hunter2', HOME: '/root' };
    const findings = scanForSecrets(
      {
        decisions: [{ decision: 'use the staging db', why: 'password hunter2hunter2 works there' }],
        done: [{ what: 'plain-but-secret-value' }],
      },
      env,
    );
    expect(findings).toEqual([
      { path: 'decisions[0].why', kind: 'env:DB_PASSWORD' },
      { path: 'done[0].what', kind: 'env:MY_SERVICE_TOKEN' },
    ]);
  });

  it('finds secrets in keys too', () => {
    expect(scanForSecrets({ extra: { [planted.github]: 'x' } })).toEqual([
      { path: `extra.${planted.github} (key)`, kind: 'github-token' },
    ]);
  });

  it.each([
    ['a git hash', '4b825dc642cb6eb9a060e54bf8d69288fbee4904'],
    ['a sha-256 digest', 'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
    ['a uuid', '123e4567-e89b-12d3-a456-426614174000'],
    ['a long path', '/work/main/packages/swarm/src/handoff/accept-handoff-packet.test.ts'],
    ['a camel-case identifier', 'writeHandoffPacketWithCredentialScanning2'],
    ['a sentence', 'run pnpm --filter @bullswarm/swarm test, then re-run the gate in plans/p1/gates'],
    ['a short sk- word', 'ask-for-review and sk-8'],
    [
      'a time-stamped packet path',
      '/tmp/bullswarm-swarm-tGhe2L/repo/plans/drill/analysis_results/handoff/handoff-20261130T073318Z-successor-cli-2.json',
    ],
    ['an upper-case constant name', 'BULLSWARM_CAPACITY_MAX_AGE_SEC_AND_BULLSWARM_LEASE_TTL_SEC'],
    ['a mixed-case macOS home path', '/Users/AnnaKowalski/Documents/GitHub/BullSwarmDemo/README.md'],
    ['a mixed-case source path', '/Users/JohnSmith/Projects/MyWebApp/src/Components/HeaderBar.tsx'],
    ['a relative mixed-case path', 'apps/WebClient/src/Components/NavigationBar/Index2.tsx'],
  ])('leaves %s alone', (_label, text) => {
    expect(secretKindOf(text, [])).toBeUndefined();
  });

  it('ignores short or path-valued credential variables and non-credential names', () => {
    expect(
      credentialValues({
        API_KEY: 'short',
        SSH_KEY_PATH: '/home/me/.ssh/id_ed25519',
        EDITOR: 'vim-or-something-long',
        GITHUB_TOKEN: 'x'.repeat(12),
      }),
    ).toEqual([{ name: 'GITHUB_TOKEN', value: 'x'.repeat(12) }]);
  });

  it('entropy is bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});

describe('redactSecrets', () => {
  it('replaces token shapes, credential values and random tokens with their kind, and keeps the rest', () => {
    const token = `gh${'p'}_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5`;
    expect(redactSecrets(`Unrecognized key: "${token}"`)).toBe('Unrecognized key: "[redacted github-token]"');
    expect(redactSecrets('--step "use hunter2-staging-pw"', { STAGING_PASSWORD: 'hunter2-staging-pw' })).toBe(
      '--step "use [redacted env:STAGING_PASSWORD]"',
    );
    const plain =
      'plans/p1/plan.json: tasks[0].id: expected a letter (head 3f2a9c0d1e2b3a4f5c6d7e8f9a0b1c2d3e4f5a6b)';
    expect(redactSecrets(plain)).toBe(plain);
  });
});

describe('createRedactor allow', () => {
  it('lets exactly one minted value through, and still redacts every other secret around it', () => {
    const redact = createRedactor([{ API_TOKEN: 'env-secret-value-1234' }]);
    const minted = 'Qx7vR2mK9pL4sT8wZ1cF6hJ3nB5dG0yAeUiOo_-Xk';
    const line = `http://127.0.0.1:7878/?token=${minted} key=ghp_${'a1B2'.repeat(9)} env-secret-value-1234`;
    expect(redact.text(line)).not.toContain(minted);
    redact.allow(minted);
    const out = redact.text(line);
    expect(out).toContain(`?token=${minted} `);
    expect(out).toContain('[redacted github-token]');
    expect(out).toContain('[redacted env:API_TOKEN]');
  });
});

describe('redactSecrets on paths', () => {
  it('keeps a path of words whole, and redacts only the random segment of a path that has one', () => {
    const home = '/Users/AnnaKowalski/Documents/GitHub/BullSwarmDemo';
    expect(redactSecrets(`wrote ${home}/report.json`)).toBe(`wrote ${home}/report.json`);
    expect(redactSecrets(`${home}/${planted.random}/id`)).toBe(`${home}/[redacted high-entropy]/id`);
    expect(redactSecrets(`url https://files.example/wJalrXUtnFEMI/K7MDENG/${'bPxRfiCYEXAMPLEKEY'}`)).toBe(
      'url https://files.[redacted high-entropy]',
    );
  });
});
