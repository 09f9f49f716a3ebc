import { WorkflowError } from '../errors/workflow-error';
import type { WorkflowProgram } from '../program/workflow-program';

/**
 * The run's input values: each one given in `inputs` (strings), else the declared default. An input
 * the program does not declare is refused (`unknown-input`, naming the declared ones); a `required`
 * input with neither a value nor a default is refused (`missing-input`). An optional input without
 * either stays unset, and a template that reads it fails its step with "input <name> has no value".
 */
export function resolveInputs(
  program: WorkflowProgram,
  given: Readonly<Record<string, string>> = {},
): Record<string, unknown> {
  const declared = Object.keys(program.inputs);
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(program.inputs, name)) {
      const problem =
        `the program declares no input "${name}"` +
        (declared.length > 0 ? ` (it declares ${declared.join(', ')})` : ' (it declares no inputs)');
      throw new WorkflowError({
        kind: 'unknown-input',
        message: `inputs.${name}: ${problem}`,
        option: { name: 'inputs', value: name, problem },
      });
    }
  }
  const values: Record<string, unknown> = {};
  const missing: string[] = [];
  for (const [name, input] of Object.entries(program.inputs)) {
    if (Object.hasOwn(given, name)) values[name] = given[name];
    else if (input.default !== undefined) values[name] = input.default;
    else if (input.required) missing.push(name);
  }
  if (missing.length > 0) {
    throw new WorkflowError({
      kind: 'missing-input',
      message: `missing required input${missing.length > 1 ? 's' : ''}: ${missing
        .map((name) => `inputs.${name}`)
        .join(', ')}`,
      missingInputs: missing,
    });
  }
  return values;
}
