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

describe('the meter reading schema is built on first use', () => {
  it('loading the package builds no zod schema; the first parse builds it once', async () => {
    const meters = await import('../index');
    expect(built.objects).toBe(0);

    const reading = { windows: [{ kind: 'weekly', usedPct: 40 }] };
    const origin = { sourceType: 'file', description: 'meter file /m.json', location: '/m.json' };
    expect(meters.parseMeterReading(reading, origin).windows).toHaveLength(1);
    const afterFirst = built.objects;
    expect(afterFirst).toBeGreaterThan(0);
    meters.parseMeterReading(reading, origin);
    expect(built.objects).toBe(afterFirst);
  });
});
