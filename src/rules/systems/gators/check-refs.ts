import { tagsOf } from '../../model/cross-checks-play';
import { Scenario } from '../../model/scenario';
import { Report } from '../../model/scenario-error';

type Path = readonly PropertyKey[];

/**
 * Cross-checks of the ids the Gators! sections name (check-scenario.ts), on their parsed data.
 * Tags, terrain and overlays are checked only where the scenario writes them: the rules' default
 * may name counters a scenario does not have, and the rule then simply never applies. Columns,
 * results, target classes and sides are checked even as defaults: a missing one breaks a rule.
 */
export class Refs {
  private readonly tagSet: ReadonlySet<string>;
  private readonly columns: ReadonlySet<string>;

  constructor(
    readonly s: Scenario,
    private readonly report: Report,
  ) {
    this.tagSet = tagsOf(s);
    this.columns = new Set((s.rules.combat.odds?.columns ?? []).map((c) => c.label));
  }

  /** A path of rules.json (or of scenario.json when it starts with "options"). */
  private file(path: Path): string {
    return path[0] === 'options' ? 'scenario.json' : 'rules.json';
  }

  /** Whether the scenario writes a value at `path` (else the schema's default is used). */
  written(path: Path): boolean {
    let at: unknown = path[0] === 'options' ? this.s.manifest : this.s.rules;
    for (const k of path) at = typeof at === 'object' && at !== null && Object.hasOwn(at, k) ? (at as Record<PropertyKey, unknown>)[k] : undefined;
    return at !== undefined;
  }

  /** A mistake at `path`; a value the scenario does not write is the rules' default, and said so. */
  bad(path: Path, message: string): void {
    this.report(this.file(path), path, this.written(path) ? message : `${message} (the rules' value for an absent key: write one that fits this scenario)`);
  }

  /** Tags some unit type has (only where written: see above). */
  tags(path: Path, list: readonly string[]): void {
    if (!this.written(path)) return;
    list.forEach((t, j) => {
      if (!this.tagSet.has(t)) this.report(this.file(path), [...path, j], `no unit type of units.json has tag "${t}"`);
    });
  }

  unitType(path: Path, id: string): void {
    if (!Object.hasOwn(this.s.units.types, id)) this.bad(path, `"${id}" is not a unit type of units.json`);
  }

  column(path: Path, label: string): void {
    if (!this.columns.has(label)) this.bad(path, `"${label}" is not a column of the combat table (combat.odds.columns: ${[...this.columns].join(', ') || 'none'})`);
  }

  result(path: Path, label: string): void {
    if (!Object.hasOwn(this.s.rules.combat.odds?.results ?? {}, label)) this.bad(path, `"${label}" is not a result of the combat table (combat.odds.results)`);
  }

  targetClass(path: Path, c: string): void {
    if (!this.s.rules.targetClasses.includes(c)) this.bad(path, `"${c}" is not a target class of rules.json`);
  }

  side(path: Path, side: string): void {
    if (!this.s.manifest.sides.some((x) => x.id === side)) this.bad(path, `"${side}" is not a side of scenario.json`);
  }

  terrain(path: Path, list: readonly string[]): void {
    if (!this.written(path)) return;
    list.forEach((t, j) => {
      if (!Object.hasOwn(this.s.terrain.terrain, t)) this.bad([...path, j], `terrain "${t}" is not defined in terrain.json`);
    });
  }

  overlays(path: Path, list: readonly string[]): void {
    if (!this.written(path)) return;
    list.forEach((o, j) => {
      if (!Object.hasOwn(this.s.terrain.overlays, o)) this.bad([...path, j], `overlay "${o}" is not defined in terrain.json`);
    });
  }

  /** A die result that can come up on a `die`-sided die (by default the combat table's). */
  roll(path: Path, value: number, die = this.s.rules.combat.odds?.die ?? 6): void {
    if (value > die) this.bad(path, `${value} cannot be rolled on a ${die}-sided die`);
  }

  rolls(path: Path, list: readonly number[], die?: number): void {
    list.forEach((r, j) => this.roll([...path, j], r, die));
  }
}
