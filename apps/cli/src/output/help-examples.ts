/** The `Examples:` block appended to a command's help: one `$ <command line>` per line. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}
