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

/**
 * A zod error as issues of `file`, under `base` (the section's path in the file). An unknown
 * key gets the key's own path (`options.debrisMarker`), so a typo is found where it is written.
 */
export function zodIssues(file: string, base: readonly PropertyKey[], error: { readonly issues: readonly ZodIssueLike[] }): ScenarioIssue[] {
  return error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys' && i.keys !== undefined
      ? i.keys.map((k) => ({ file, path: formatPath([...base, ...i.path, k]), message: `"${k}" is not a known key here` }))
      : [{ file, path: formatPath([...base, ...i.path]), message: i.message }],
  );
}

/** The part of a zod issue zodIssues reads (kept structural: this file does not import zod). */
interface ZodIssueLike {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly keys?: readonly string[];
}

/** Reports one mistake at a JSON path of a file. */
export type Report = (file: string, path: readonly PropertyKey[], message: string) => void;

/** A list of issues and the Report that adds to it (the cross-checks' and systems' checks). */
export function issueList(): { readonly issues: ScenarioIssue[]; readonly report: Report } {
  const issues: ScenarioIssue[] = [];
  return { issues, report: (file, path, message) => issues.push({ file, path: formatPath(path), message }) };
}
