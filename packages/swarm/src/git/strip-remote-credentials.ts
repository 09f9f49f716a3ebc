/**
 * A remote URL fit to be written into a packet: the userinfo (`user:password@`, a token used as
 * user name) and any query string or fragment are removed, the rest is kept as it is.
 *
 * - `https://user:pass@host/x.git?token=t#f` → `https://host/x.git`
 * - scp-like `user@host:owner/x.git` → `host:owner/x.git` (the user part is userinfo too; git
 *   still reads the result as an ssh remote with the default user)
 * - a local path (no scheme, no `host:`) is returned unchanged.
 */
export function stripRemoteCredentials(url: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)(.*)$/s.exec(url);
  if (scheme) {
    const rest = scheme[2]!.replace(/[?#].*$/s, '');
    const slash = rest.indexOf('/');
    const authority = slash === -1 ? rest : rest.slice(0, slash);
    const path = slash === -1 ? '' : rest.slice(slash);
    const at = authority.lastIndexOf('@');
    return `${scheme[1]}${at === -1 ? authority : authority.slice(at + 1)}${path}`;
  }
  // scp-like: [user@]host:path, where host has no slash before the colon.
  const scp = /^([^/:]*@)?([^/:@]+):(.*)$/s.exec(url);
  if (scp && !/^[A-Za-z]$/.test(scp[2]!)) return `${scp[2]}:${scp[3]!.replace(/[?#].*$/s, '')}`;
  return url;
}
