import { describe, expect, it } from 'vitest';
import type { BullswarmRuntime } from './open-runtime';
import { runtimeRedactor } from './runtime-redactor';

describe('runtimeRedactor', () => {
  it("redacts the process's credential values, each pool's env and its connector's account env", () => {
    const connector = {
      accountEnv: ({ account }: { account: string }) => ({
        ACME_SESSION_TOKEN: `connector-secret-${account}-42`,
      }),
    };
    const runtime = {
      env: { MY_DEPLOY_TOKEN: 'process-secret-value-77' },
      state: {
        pools: [
          {
            id: 'acme:work',
            connector: 'acme',
            account: 'work',
            env: { ACME_API_KEY: 'pool-secret-value-zz9' },
          },
          { id: 'gone', connector: 'not-installed' },
        ],
      },
      connectors: new Map([['acme', connector]]),
      home: { home: '/home/me/.bullswarm' },
      userHome: '/home/me',
    } as unknown as BullswarmRuntime;
    const redact = runtimeRedactor(runtime);
    expect(redact.text('a process-secret-value-77 b pool-secret-value-zz9 c connector-secret-work-42')).toBe(
      'a [redacted env:MY_DEPLOY_TOKEN] b [redacted env:ACME_API_KEY] c [redacted env:ACME_SESSION_TOKEN]',
    );
  });
});
