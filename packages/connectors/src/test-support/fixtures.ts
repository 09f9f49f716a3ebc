import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOutputParser, type OutputFormat } from '../parsers';
import type { ConnectorV1ParsedOutput } from '../spec/v1';

const root = new URL('../__fixtures__/', import.meta.url);

export function fixturePath(name: string): string {
  return fileURLToPath(new URL(name, root));
}

export function readFixture(name: string): string {
  return readFileSync(new URL(name, root), 'utf8');
}

/** Parses `text` fed in chunks of the given sizes (cycled), as a stream would deliver it. */
export function parseInChunks(
  format: OutputFormat,
  text: string,
  sizes: readonly number[] = [text.length || 1],
): ConnectorV1ParsedOutput {
  const parser = createOutputParser(format);
  let index = 0;
  let turn = 0;
  while (index < text.length) {
    const size = Math.max(1, sizes[turn % sizes.length] ?? 1);
    parser.push(text.slice(index, index + size));
    index += size;
    turn += 1;
  }
  return parser.end();
}

/** A deterministic pseudo-random sequence of chunk sizes (1–40), for split-anywhere tests. */
export function chunkSizes(seed: number, count = 64): number[] {
  let state = seed >>> 0 || 1;
  const sizes: number[] = [];
  for (let i = 0; i < count; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    sizes.push(1 + (state % 40));
  }
  return sizes;
}

export type NoticeTextCase = {
  kind: 'quota' | 'throttle' | 'auth' | 'process';
  text: string;
  code?: string;
  status?: number;
  resetsAt?: string;
  waitMs?: number;
  source: string;
};

export function readNoticeTexts(cli: string): NoticeTextCase[] {
  return JSON.parse(readFixture(`${cli}/notice-texts.json`)) as NoticeTextCase[];
}

/** The smallest valid connector.json: every optional field left to its default. */
export function minimalManifest() {
  return {
    specificationVersion: 'connector-v1',
    id: 'foo',
    displayName: 'Foo',
    providerFamily: 'foo',
    invocation: { command: 'foo', prompt: { mode: 'stdin' } },
    outputFormat: 'text',
    lanes: ['analyze'],
    pacingWindow: 'weekly',
    hasFiveHourWindow: false,
    cost: 1,
    modelProfiles: { low: [{ model: 'foo-small' }] },
    meter: { type: 'none' },
  } as const;
}
