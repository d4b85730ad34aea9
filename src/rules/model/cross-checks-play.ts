import { Area, Scenario } from './scenario';
import { Report } from './scenario-error';

/**
 * Cross-checks of setup.json, turns.json and victory.json (part of crossCheck, cross-checks.ts):
 * the sides, units, tags, zones and hexes they name must exist.
 */

/** Every tag some unit type carries, and the wildcard "*" (engine/queries.ts hasTag). */
export function tagsOf(s: Scenario): ReadonlySet<string> {
  return new Set(['*', ...Object.values(s.units.types).flatMap((t) => t.tags)]);
}

/** Checks a hex label of a file; its grid index, or -1 (reported). */
export type HexCheck = (file: string, path: readonly PropertyKey[], label: string) => number;

/** What the setup, turn and victory checks refer to. */
export interface Known {
  readonly sides: ReadonlySet<string>;
  /** Unit ids of the order of battle, `count` expanded. */
  readonly unitIds: ReadonlySet<string>;
  readonly tags: ReadonlySet<string>;
}

/** A tag no unit type has matches nothing: the rule or condition naming it could never apply. */
export function knownTags(file: string, path: readonly PropertyKey[], list: readonly string[], tags: ReadonlySet<string>, report: Report): void {
  list.forEach((t, j) => {
    if (!tags.has(t)) report(file, [...path, j], `no unit type of units.json has tag "${t}"`);
  });
}

/** An area's hexes are on the map, and the city or capital it names is one of map.json. */
export function checkArea(s: Scenario, file: string, path: readonly PropertyKey[], a: Area, hex: HexCheck, report: Report): void {
  if ('hexes' in a) a.hexes.forEach((h, j) => hex(file, [...path, 'hexes', j], h));
  if ('city' in a && !s.map.cities.some((x) => x.id === a.city)) report(file, [...path, 'city'], `city "${a.city}" is not on the map`);
  if ('capital' in a && !s.map.cities.some((x) => x.capital)) report(file, path, 'the map has no capital city');
}

export function checkSetupTurnsVictory(
  s: Scenario,
  k: Known,
  hex: HexCheck,
  report: Report,
): void {
  const sides = k.sides;
  checkZones(s, sides, hex, report);
  s.setup.constraints.forEach((c, i) => {
    const p = ['constraints', i];
    if (c.kind === 'max-distance') {
      for (const key of ['unit', 'from'] as const)
        if (!k.unitIds.has(c[key])) report('setup.json', [...p, key], `"${c[key]}" is not a unit of oob.json`);
    } else {
      if (!Object.hasOwn(s.setup.zones, c.zone)) report('setup.json', [...p, 'zone'], `zone "${c.zone}" is not defined`);
      if (!sides.has(c.side)) report('setup.json', [...p, 'side'], `"${c.side}" is not a side`);
      knownTags('setup.json', [...p, 'tags'], c.tags, k.tags, report);
    }
  });
  for (const side of Object.keys(s.setup.hiddenMarkers))
    if (!sides.has(side)) report('setup.json', ['hiddenMarkers', side], `"${side}" is not a side`);

  const phaseIds = new Set<string>();
  for (const key of ['setup', 'phases'] as const) {
    s.turns[key].forEach((ph, i) => {
      const p = [key, i];
      if (phaseIds.has(ph.id)) report('turns.json', [...p, 'id'], `phase id "${ph.id}" is used twice`);
      phaseIds.add(ph.id);
      if (ph.side !== undefined && !sides.has(ph.side)) report('turns.json', [...p, 'side'], `"${ph.side}" is not a side`);
      (ph.sides ?? []).forEach((x, j) => {
        if (!sides.has(x)) report('turns.json', [...p, 'sides', j], `"${x}" is not a side`);
      });
      if (!ph.auto && ph.mode === 'sequential' && ph.side === undefined) report('turns.json', p, 'a sequential phase needs "side"');
      if (!ph.auto && ph.mode === 'simultaneous' && (ph.sides ?? []).length === 0) report('turns.json', p, 'a simultaneous phase needs "sides"');
    });
  }
  // All automatic, the turns would follow one another with nobody to stop them (runner.ts advance).
  if (s.turns.phases.every((ph) => ph.auto))
    report('turns.json', ['phases'], 'every phase is "auto": no side would ever act, and the game would run by itself; give a side a phase to act in');
  // A side with no phase of its own would hold a seat in which nothing can be done, and the game
  // could not begin until someone took it.
  const acting = new Set(s.turns.phases.filter((ph) => !ph.auto).flatMap((ph) => [...(ph.side === undefined ? [] : [ph.side]), ...(ph.sides ?? [])]));
  s.manifest.sides.forEach((side, i) => {
    if (!acting.has(side.id)) report('scenario.json', ['sides', i], `side "${side.id}" acts in no phase of turns.json: its seat could do nothing`);
  });
  s.victory.conditions.forEach((c, i) => {
    const p = ['conditions', i];
    if (!sides.has(c.side)) report('victory.json', [...p, 'side'], `"${c.side}" is not a side`);
    if (c.kind === 'eliminate') knownTags('victory.json', [...p, 'enemyTags'], c.enemyTags, k.tags, report);
    if (c.kind === 'occupy') {
      c.requires.forEach((r, j) => knownTags('victory.json', [...p, 'requires', j, 'tags'], r.tags, k.tags, report));
      checkArea(s, 'victory.json', [...p, 'area'], c.area, hex, report);
    }
  });
  const w = s.victory.atTurnLimit.winner;
  if (w !== null && !sides.has(w)) report('victory.json', ['atTurnLimit', 'winner'], `"${w}" is not a side`);
}

/**
 * A zone names terrain, overlays and media that exist. A terrain no hex of the map has, or a
 * misspelt medium, would make the zone empty: every setup would be refused, for ever.
 */
function checkZones(s: Scenario, sides: ReadonlySet<string>, hex: HexCheck, report: Report): void {
  const mapped = new Set(s.map.terrainRows.flatMap((row) => [...row].map((ch) => s.map.legend[ch])));
  const media = [...new Set([...Object.values(s.terrain.terrain), ...Object.values(s.terrain.overlays)].flatMap((t) => (t.medium === undefined ? [] : [t.medium])))].sort();
  for (const [id, z] of Object.entries(s.setup.zones)) {
    const p = ['zones', id];
    if (z.side !== undefined && !sides.has(z.side)) report('setup.json', [...p, 'side'], `"${z.side}" is not a side`);
    (z.hexes ?? []).forEach((h, j) => hex('setup.json', [...p, 'hexes', j], h));
    for (const key of ['terrain', 'notAdjacentToTerrain'] as const)
      (z[key] ?? []).forEach((t, j) => {
        if (!Object.hasOwn(s.terrain.terrain, t)) report('setup.json', [...p, key, j], `terrain "${t}" is not defined in terrain.json`);
        else if (key === 'terrain' && !mapped.has(t)) report('setup.json', [...p, key, j], `no hex of map.json is "${t}"`);
      });
    for (const key of ['overlays', 'excludeOverlays'] as const)
      (z[key] ?? []).forEach((o, j) => {
        if (!Object.hasOwn(s.terrain.overlays, o)) report('setup.json', [...p, key, j], `overlay "${o}" is not defined in terrain.json`);
      });
    for (const key of ['medium', 'adjacentToMedium'] as const) {
      const m = z[key];
      if (m !== undefined && !media.includes(m)) report('setup.json', [...p, key], `"${m}" is not a medium of terrain.json (${media.join(', ')})`);
    }
  }
}
