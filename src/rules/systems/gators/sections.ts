import { z } from 'zod';
import { Scenario } from '../../model/scenario';
import { ScenarioError, ScenarioIssue, zodIssues } from '../../model/scenario-error';

/**
 * A section of a scenario file that only Gators! reads (rules.json `combat.<name>`, scenario.json
 * `options`; the kernel schema leaves them free-form). Its schema is strict, so a misspelt key
 * is refused instead of silently falling back to the rules' value. The same schema serves the
 * check at load (check-scenario.ts) and the readers in play (data.ts, ground-data.ts,
 * air-data.ts), so the two cannot disagree.
 */
export interface Section<T> {
  readonly file: 'rules.json' | 'scenario.json';
  /** Path of the section inside the file. */
  readonly path: readonly string[];
  readonly schema: z.ZodType<T>;
  /** What an absent section means: parsed instead (the rules' values); null: the rule is off. */
  readonly absent: unknown;
}

export function combatSection<T>(name: string, schema: z.ZodType<T>, absent: unknown = {}): Section<T> {
  return { file: 'rules.json', path: ['combat', name], schema, absent };
}

/** The section as written in the scenario, or undefined. */
export function writtenSection(s: Scenario, sec: Section<unknown>): unknown {
  let at: unknown = sec.file === 'rules.json' ? s.rules : s.manifest;
  for (const key of sec.path) at = typeof at === 'object' && at !== null && Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

function parse<T>(s: Scenario, sec: Section<T>): z.ZodSafeParseResult<T> {
  return sec.schema.safeParse(writtenSection(s, sec) ?? sec.absent);
}

/** The section's mistakes, each with its file and JSON path. */
export function sectionIssues(s: Scenario, sec: Section<unknown>): ScenarioIssue[] {
  if (sec.absent === null && writtenSection(s, sec) === undefined) return [];
  const r = parse(s, sec);
  return r.success ? [] : zodIssues(sec.file, sec.path, r.error);
}

/** The parsed section (one that is off when absent: read it only when written); a mistake throws the ScenarioError the loader would have thrown. */
export function readSection<T>(s: Scenario, sec: Section<T>): T {
  const r = parse(s, sec);
  if (!r.success) throw new ScenarioError(`"${s.manifest.id}"`, zodIssues(sec.file, sec.path, r.error));
  return r.data;
}
