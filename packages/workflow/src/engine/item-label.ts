import { isPlainObject } from '../program/json-path';

/** A short label of a fan-out item for the live view: a string as is, else a naming field, else its JSON. */
export function itemLabel(item: unknown, max = 60): string {
  let label: string;
  if (typeof item === 'string') label = item;
  else if (isPlainObject(item)) {
    const named = ['path', 'file', 'name', 'id', 'title']
      .map((key) => item[key])
      .find((v) => typeof v === 'string');
    label = typeof named === 'string' ? named : JSON.stringify(item);
  } else label = JSON.stringify(item) ?? String(item);
  label = label.replace(/\s+/g, ' ');
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}
