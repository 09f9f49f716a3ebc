import { describe, expect, it } from 'vitest';
import { stripRemoteCredentials } from './strip-remote-credentials';

describe('stripRemoteCredentials', () => {
  it.each([
    ['https://user:pass@host/x.git', 'https://host/x.git'],
    ['https://tok@host:8443/a/b.git?private_token=t#frag', 'https://host:8443/a/b.git'],
    ['ssh://git@host/x.git', 'ssh://host/x.git'],
    ['git@github.com:owner/x.git', 'github.com:owner/x.git'],
    ['https://host/x.git', 'https://host/x.git'],
    ['/srv/repos/x.git', '/srv/repos/x.git'],
    ['C:/repos/x', 'C:/repos/x'],
  ])('%s → %s', async (url, expected) => {
    expect(stripRemoteCredentials(url)).toBe(expected);
  });
});
