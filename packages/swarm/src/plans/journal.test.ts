import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendJournal, readJournal } from './journal';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function journalPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'swarm-journal-'));
  dirs.push(dir);
  return join(dir, 'plans', 'p1', 'journal.jsonl');
}

describe('appendJournal', () => {
  it('seals a line torn by a killed writer, so the next entry is kept whole', async () => {
    const file = journalPath();
    appendJournal(file, { type: 'observation', event: 'capacity.checked', plan: 'p1' }, 1000);
    // A writer killed mid-write leaves part of a line.
    writeFileSync(file, `${readFileSync(file, 'utf8')}{"at":"1970-01-01T00:00:01.000Z","type":"deleg`);
    appendJournal(file, { type: 'delegation', event: 'lane.launched', plan: 'p1' }, 2000);
    expect(readJournal(file).map((entry) => entry.event)).toEqual(['capacity.checked', 'lane.launched']);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
  });

  it('still names a line that is not JSON at all', async () => {
    const file = journalPath();
    appendJournal(file, { type: 'observation', event: 'capacity.checked', plan: 'p1' }, 1000);
    writeFileSync(file, `${readFileSync(file, 'utf8')}hello\n`);
    await expect((async () => readJournal(file))()).rejects.toThrow(/line 2/);
  });
});
