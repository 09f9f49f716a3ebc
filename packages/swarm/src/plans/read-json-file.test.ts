import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PlanFileError } from '../errors/plan-file-error';
import { readHandoffPacket } from '../handoff/read-handoff-packet';
import { smallPlan, tempDirs, writePlan } from '../test-support/swarm-fixture';
import { loadPlan, parsePlanFile } from './plan-location';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

/** The PlanFileError `read` throws (fails the test when it throws nothing or something else). */
function failure(read: () => unknown): PlanFileError {
  try {
    read();
  } catch (error) {
    if (PlanFileError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a PlanFileError');
}

describe('plan files and handoff packets', () => {
  it('name the file and what is wrong: missing, not JSON, a field that does not fit, an id that does not match', async () => {
    const dir = dirs.make();
    const missing = join(dir, 'plans', 'p1', 'plan.json');
    expect(failure(() => parsePlanFile(missing))).toMatchObject({
      filePath: missing,
      fieldPath: undefined,
      problem: 'no such plan file',
    });
    expect(failure(() => readHandoffPacket(join(dir, 'gone.json'))).problem).toBe('no such handoff packet');

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{\n  "schema": "dwp-plan/v1",\n  "tasks": [}\n');
    expect(failure(() => parsePlanFile(broken)).problem).toBe(
      'is not valid JSON: expected a value, found "}" at line 3, column 13',
    );
    expect(failure(() => readHandoffPacket(broken)).message).toBe(
      `${broken}: is not valid JSON: expected a value, found "}" at line 3, column 13`,
    );
    const binary = join(dir, 'binary.json');
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x1b, 0x5b, 0x32, 0x4a]));
    expect(failure(() => readHandoffPacket(binary)).message).toBe(
      `${binary}: is not a text file (binary data at byte 6)`,
    );

    const location = writePlan(dir, smallPlan());
    writeFileSync(
      location.planFile,
      JSON.stringify({ ...smallPlan(), tasks: [{ id: 'api', dependsOn: [7] }] }),
    );
    expect(failure(() => loadPlan(location))).toMatchObject({
      filePath: location.planFile,
      fieldPath: 'tasks[0].dependsOn[0]',
    });
    const packet = failure(() => readHandoffPacket(location.planFile));
    expect(packet.problem).toMatch(/ \(not a dwp-handoff\/v1 packet\)$/);
    expect(packet.fieldPath).not.toBeUndefined();

    writeFileSync(location.planFile, JSON.stringify(smallPlan('p2')));
    expect(failure(() => loadPlan(location))).toMatchObject({
      fieldPath: 'id',
      problem: 'is "p2" but the plan directory is plans/p1: they must match',
    });
  });

  it('ignore a leading byte-order mark', async () => {
    const dir = dirs.make();
    const location = writePlan(dir, smallPlan());
    writeFileSync(location.planFile, `\uFEFF${JSON.stringify(smallPlan())}`);
    expect(loadPlan(location).id).toBe('p1');
  });
});
