import { describe, expect, it, vi } from 'vitest';

// Counts the zod object schemas constructed, through the real zod.
const built = vi.hoisted(() => ({ objects: 0 }));
vi.mock('zod', async (importOriginal) => {
  const original = await importOriginal<typeof import('zod')>();
  const object = ((...args: Parameters<typeof original.z.object>) => {
    built.objects += 1;
    return original.z.object(...args);
  }) as typeof original.z.object;
  return { ...original, z: { ...original.z, object } };
});

describe('the manifest schema is built on first use', () => {
  it('loading the package builds no zod schema; the first validation builds it once', async () => {
    const connectors = await import('../index');
    expect(built.objects).toBe(0);

    expect(() => connectors.parseConnectorManifest({ id: 'x' }, 'x.json')).toThrow(/x\.json/);
    const afterFirst = built.objects;
    expect(afterFirst).toBeGreaterThan(0);
    expect(() => connectors.parseConnectorManifest({ id: 'y' }, 'y.json')).toThrow(/y\.json/);
    expect(built.objects).toBe(afterFirst);
  });
});
