/** One mistake in a scenario: the file, the JSON path inside it, and what is wrong. */
export interface ScenarioIssue {
  readonly file: string;
  readonly path: string;
  readonly message: string;
}

/** Thrown when a scenario is refused; the message names every file and path at fault. */
export class ScenarioError extends Error {
  constructor(
    readonly scenario: string,
    readonly issues: readonly ScenarioIssue[],
  ) {
    super(
      `scenario ${scenario} refused: ${issues.length} mistake${issues.length === 1 ? '' : 's'}\n` +
        issues.map((i) => `  ${i.file} at ${i.path || '(top)'}: ${i.message}`).join('\n'),
    );
    this.name = 'ScenarioError';
  }
}

/** Formats a zod / JSON path as `terrainRows[3]` or `legend["."]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (typeof p === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(p)) out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(String(p))}]`;
  }
  return out;
}
