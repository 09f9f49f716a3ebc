/**
 * How `bullswarm doctor` tells whether a pool's account is signed in without a network call.
 *
 * - `command`: runs the CLI with `args` (in the account's environment, bounded by doctor's timeout);
 *   output matching `signedIn` means signed in, `signedOut` signed out, anything else unknown
 *   (e.g. Codex `login status`, Claude Code `auth status`).
 * - `files`: signed in when one of `files` exists or one of `env` is set; otherwise `whenMissing`
 *   (`signed-out` when the CLI cannot run without one, `unknown` when it can, e.g. free models).
 */
export type ConnectorV1SignIn =
  | {
      readonly type: 'command';
      /** The arguments after the CLI, e.g. `["login", "status"]`. */
      readonly args: readonly string[];
      /** A regular expression over stdout and stderr that means signed in. */
      readonly signedIn: string;
      /** A regular expression over stdout and stderr that means signed out. */
      readonly signedOut: string;
    }
  | {
      readonly type: 'files';
      /**
       * Credential files of a named account; templates `{{account}}`, `{{home}}`, `{{userHome}}`
       * and `{{env.NAME}}` (the account env). A path whose template cannot be rendered is skipped.
       */
      readonly files: readonly string[];
      /** The credential files of the default account, when they differ from `files`. */
      readonly defaultFiles?: readonly string[];
      /** Variables (of the account env or the process) that sign the CLI in, e.g. `GEMINI_API_KEY`. */
      readonly env: readonly string[];
      /** What finding none of them means. */
      readonly whenMissing: 'signed-out' | 'unknown';
    };
