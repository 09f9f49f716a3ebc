import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '@bullswarm/connectors/internal';
import type { Redactor } from '@bullswarm/connectors/redact';

/** Larger files are left as they are (a candidate is a small JSON object). */
const MAX_REDACTED_BYTES = 8 * 1024 * 1024;

/**
 * Rewrites every file under `dir` (recursively) that carries a secret with it redacted
 * (atomically, 0600): the candidates a schema-bound worker wrote into its own folder of the home
 * (`candidates/<step>/[<item>/]`) are files of the home like the attempt transcripts. Files without
 * a secret are left untouched. Returns the files rewritten.
 */
export function redactFilesUnder(dir: string, redact: Redactor): string[] {
  const rewritten: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return rewritten;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      rewritten.push(...redactFilesUnder(path, redact));
      continue;
    }
    if (entry.isFile() && redactFile(path, redact)) rewritten.push(path);
  }
  return rewritten;
}

/**
 * Rewrites one file with its secrets redacted (atomically, 0600) when it carries any; returns
 * whether it did. A missing or very large file is left as it is.
 */
export function redactFile(path: string, redact: Redactor): boolean {
  let text: string;
  try {
    if (statSync(path).size > MAX_REDACTED_BYTES) return false;
    text = readFileSync(path, 'utf8');
  } catch {
    return false;
  }
  const clean = redact.text(text);
  if (clean === text) return false;
  writeFileAtomic(path, clean);
  return true;
}
