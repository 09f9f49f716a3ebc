/** An elapsed time for the live view: `0.4s`, `12.3s`, `6m 12s`, `2h 5m`. */
export function formatElapsed(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 60_000) return `${(safe / 1000).toFixed(1)}s`;
  const totalSec = Math.floor(safe / 1000);
  if (totalSec < 3600) return `${Math.floor(totalSec / 60)}m ${totalSec % 60}s`;
  const minutes = Math.floor(totalSec / 60);
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
