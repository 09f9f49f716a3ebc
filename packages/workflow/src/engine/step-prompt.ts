import type { OutputSchemaProblem } from '../program/output-schema';

/** Quotes one argument for display in a shell-like command line. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * The fixed instruction that opens a blind step's prompt. The worker gets nothing of the steps it
 * is blind to (validation keeps their outputs out of its templates, and the engine adds no context
 * from them): only the files in the tree.
 */
export function blindPrefix(blindTo: readonly string[], files: readonly string[]): string {
  const allowed = files.length === 0 ? 'change no file' : `change no file except ${files.join(', ')}`;
  return (
    `You are checking work blind: you get nothing of the steps ${blindTo.join(', ')} — not their answers, ` +
    'transcripts or reasons — only the files in the tree. Before you look, state your checks as a numbered ' +
    'list, then report against each number. Any difference between what a check expects and what you find ' +
    `is a finding. ${allowed[0]?.toUpperCase()}${allowed.slice(1)}.\n\n`
  );
}

/** The files rule every prompt ends with (the engine enforces it after the step). */
export function filesRule(files: readonly string[]): string {
  return files.length === 0
    ? '\n\nThis step may change no file in the work tree; changing any file fails it.'
    : `\n\nThis step may change only files matching: ${files.join(', ')}. Changing any other file fails it.`;
}

/** The output-schema instructions, with the preflight command the worker runs on its candidate. */
export function schemaInstructions(options: {
  readonly schemaFile: string;
  readonly candidateFile: string;
  readonly checkCommand: readonly string[];
}): string {
  const command = [...options.checkCommand, options.schemaFile, options.candidateFile]
    .map(shellQuote)
    .join(' ');
  return (
    `\n\nYour final answer must be one JSON object that matches the JSON Schema in ${options.schemaFile}. ` +
    `Before you reply, write your candidate object to ${options.candidateFile} and run:\n\n    ${command}\n\n` +
    'Correct the object until that command exits 0, then reply with exactly that object as the last thing in ' +
    'your answer (a ```json fenced block is fine).'
  );
}

/** Added to the prompt of a schema retry. */
export function schemaRetryNote(errors: readonly OutputSchemaProblem[], noObject: boolean): string {
  if (noObject) {
    return '\n\nYour previous answer held no JSON object. Answer again, ending with the JSON object the schema describes.';
  }
  const lines = errors.slice(0, 20).map((error) => `- ${error.path}: ${error.message}`);
  return `\n\nYour previous answer did not match the schema:\n${lines.join('\n')}\nAnswer again with a corrected object.`;
}

/** Added to the prompt of a gate retry. */
export function gateRetryNote(why: string, tail: string): string {
  return (
    `\n\nAfter your previous attempt, ${why}. The end of its output:\n\n${tail.trim().slice(-2000)}\n\n` +
    'Fix the cause, within the files this step may change.'
  );
}
