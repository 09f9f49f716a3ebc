import { execa } from 'execa';
import { CliExit, CliUsageError } from '../cli/cli-errors';
import { type CommandContext, userHomeOf } from '../cli/command-context';
import { EXIT } from '../cli/exit-codes';
import { parseWholeNumber } from '../parse/parse-options';
import { checkOutputSchemaPrefix } from './workflow/workflow-cli-support';

/** Options of `bullswarm dashboard`. */
export interface DashboardOptions {
  readonly port?: string;
  readonly host?: string;
  readonly open?: boolean;
}

/** Opens a URL in the desktop's browser (best effort: a headless machine has none). */
function openBrowser(url: string): boolean {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer.exe' : 'xdg-open';
  try {
    // Its own process group, not waited for, not ended with bullswarm (the browser stays open).
    const child = execa(command, [url], { detached: true, stdio: 'ignore', reject: false, cleanup: false });
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/**
 * `bullswarm dashboard [--port N] [--host 127.0.0.1] [--open]`: serves the dashboard until Ctrl-C.
 * Prints the address with its token (every request needs it; the page keeps it in a cookie). A
 * --host other than a loopback address prints a warning: the pages (and the resume buttons) are
 * then reachable by anyone on the network who learns the token.
 */
export async function dashboardCommand(context: CommandContext, options: DashboardOptions): Promise<void> {
  const { DEFAULT_DASHBOARD_HOST, DEFAULT_DASHBOARD_PORT, startDashboard } = await import(
    '@bullswarm/dashboard'
  );
  const port =
    options.port === undefined ? DEFAULT_DASHBOARD_PORT : parseWholeNumber(options.port, '--port', 0, 65535);
  const host = options.host ?? DEFAULT_DASHBOARD_HOST;
  if (host.trim() === '' || /[\s/]/.test(host)) {
    throw new CliUsageError({
      message: `--host "${host}" is not an address: expected an IP address or a name, e.g. 127.0.0.1`,
      flag: '--host',
      expected: '127.0.0.1',
    });
  }
  let dashboard: Awaited<ReturnType<typeof startDashboard>>;
  try {
    dashboard = await startDashboard({
      ...(context.homeDir === undefined ? {} : { home: context.homeDir }),
      env: context.io.env,
      userHome: userHomeOf(context.io),
      projectDir: context.io.cwd,
      host,
      port,
      checkOutputSchemaCommand: checkOutputSchemaPrefix(),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      context.io.err(
        `bullswarm dashboard: port ${port} on ${host} is in use: pick another with --port (0 for any free port)\n`,
      );
      throw new CliExit(EXIT.failed);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
      throw new CliUsageError({
        message: `--host ${host} --port ${port}: cannot listen there (${code})`,
        flag: '--host',
      });
    }
    throw error;
  }
  // Listening before the address is printed (whoever reads it may signal at once), and until the
  // dashboard is closed, as in `run` and `workflow`: removed inside the handler, another library's
  // exit hook that runs after it (execa's signal-exit, loaded while a meter command or git runs)
  // would see no listener left and re-raise the signal, so the process would die by SIGTERM
  // instead of closing and exiting 0.
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = () => resolve();
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    if (!dashboard.loopback) {
      context.io.err(
        `${context.errColors.yellow('warning')}: --host ${host} is not a loopback address: anyone who can reach this machine and learns the token can see your pools and runs and resume workflows\n`,
      );
    }
    // The token is a secret minted for the person who started the dashboard: the printed address must
    // carry it, so the redaction every command's output goes through lets this one value pass.
    context.io.allowValue?.(dashboard.token);
    context.io.out(`bullswarm dashboard: ${dashboard.url}\n`);
    context.io.out('open that address (it carries the access token); Ctrl-C stops the dashboard\n');
    if (options.open && !openBrowser(dashboard.url)) {
      context.io.err('could not start a browser: open the address above yourself\n');
    }
    await stopped;
  } finally {
    try {
      await dashboard.close();
    } finally {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    }
  }
}
