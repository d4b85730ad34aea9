import { HexGrid, gridFor } from '../hex/grid';
import { Scenario } from './scenario';
import { checkOddsTable } from './cross-checks-odds';
import { HexCheck, checkArea, checkSetupTurnsVictory, tagsOf } from './cross-checks-play';
import { Report, ScenarioIssue, issueList } from './scenario-error';

/**
 * Checks that span files or need the map: labels on the board, legend
 * characters, ids that refer to other files. Shapes were checked by zod.
 */
export function crossCheck(s: Scenario): ScenarioIssue[] {
  const { issues, report } = issueList();
  const sides = new Set(s.manifest.sides.map((x) => x.id));
  const grid = checkMapShape(s, report);
  if (grid === null) return issues;
  const onMap = onMapTest(s, grid);
  const hex = (file: string, path: readonly PropertyKey[], label: string): number => {
    const i = grid.indexOf(label);
    if (i < 0) report(file, path, `"${label}" is not a hex of this ${s.map.columns}×${s.map.rows} map`);
    else if (!onMap(i)) report(file, path, `"${label}" is off-map (its legend entry is null)`);
    return i;
  };
  checkMap(s, grid, hex, sides, report);
  checkTerrain(s, report);
  checkRules(s, hex, report);
  checkUnits(s, sides, report);
  const unitIds = checkOob(s, sides, hex, report);
  checkSetupTurnsVictory(s, { sides, unitIds, tags: tagsOf(s) }, hex, report);
  return issues;
}

function checkMapShape(s: Scenario, report: Report): HexGrid | null {
  const m = s.map;
  let ok = true;
  if (m.terrainRows.length !== m.rows) {
    report('map.json', ['terrainRows'], `has ${m.terrainRows.length} rows, "rows" says ${m.rows}`);
    ok = false;
  }
  m.terrainRows.forEach((row, r) => {
    if ([...row].length !== m.columns) {
      report('map.json', ['terrainRows', r], `row ${r + 1} has ${[...row].length} characters, "columns" says ${m.columns}`);
      ok = false;
    }
    [...row].forEach((ch, c) => {
      if (!Object.hasOwn(m.legend, ch)) {
        report('map.json', ['terrainRows', r], `character "${ch}" at column ${c + 1} is not in the legend`);
        ok = false;
      }
    });
  });
  for (const [ch, t] of Object.entries(m.legend)) {
    if (t !== null && !Object.hasOwn(s.terrain.terrain, t)) {
      report('map.json', ['legend', ch], `terrain "${t}" is not defined in terrain.json`);
      ok = false;
    }
  }
  return ok ? gridFor(m.columns, m.rows) : null;
}

function onMapTest(s: Scenario, grid: HexGrid): (i: number) => boolean {
  return (i) => {
    const ch = [...s.map.terrainRows[grid.row(i)]!][grid.col(i)]!;
    return s.map.legend[ch] !== null;
  };
}

function checkMap(
  s: Scenario,
  grid: HexGrid,
  hex: HexCheck,
  sides: ReadonlySet<string>,
  report: Report,
): void {
  const m = s.map;
  const overlays = s.terrain.overlays;
  const needOverlay = (name: string, path: PropertyKey[], used: boolean) => {
    if (used && !Object.hasOwn(overlays, name)) report('map.json', path, `the map uses overlay "${name}" but terrain.json does not define it`);
  };
  const paths = (key: 'roads' | 'rivers', list: readonly (readonly string[])[], base: PropertyKey[] = [key]) =>
    list.forEach((p, i) => {
      let prev = -1;
      p.forEach((label, j) => {
        const cur = hex('map.json', [...base, i, j], label);
        if (prev >= 0 && cur >= 0 && grid.directionTo(prev, cur) < 0)
          report('map.json', [...base, i, j], `"${label}" is not adjacent to the previous hex "${p[j - 1]}"`);
        prev = cur;
      });
    });
  paths('roads', m.roads);
  paths('rivers', m.rivers);
  needOverlay('road', ['roads'], m.roads.length > 0);
  needOverlay('river', ['rivers'], m.rivers.length > 0);
  needOverlay('bridge', ['bridges'], m.bridges.length > 0);
  needOverlay('city', ['cities'], m.cities.length > 0);
  needOverlay('airfield', ['airfields'], m.airfields.length > 0);
  // A bridge carries a road (or a railway…) over water: one on no such path is a misplaced label.
  const carried = new Set([...m.roads, ...m.networks.flatMap((n) => n.paths)].flat());
  m.bridges.forEach((b, i) => {
    if (hex('map.json', ['bridges', i, 'hex'], b.hex) >= 0 && !carried.has(b.hex))
      report('map.json', ['bridges', i, 'hex'], `bridge "${b.hex}" is on no road or network path`);
    for (const side of Object.keys(b.passage))
      if (!sides.has(side)) report('map.json', ['bridges', i, 'passage', side], `"${side}" is not a side of scenario.json`);
  });
  const ids = new Set<string>();
  const area = (key: 'cities' | 'airfields', list: readonly { id: string; hexes: readonly string[] }[]) =>
    list.forEach((c, i) => {
      if (ids.has(c.id)) report('map.json', [key, i, 'id'], `id "${c.id}" is used twice`);
      ids.add(c.id);
      c.hexes.forEach((h, j) => hex('map.json', [key, i, 'hexes', j], h));
    });
  area('cities', m.cities);
  area('airfields', m.airfields);
  m.airfields.forEach((a, i) => {
    if (a.owner !== undefined && !sides.has(a.owner)) report('map.json', ['airfields', i, 'owner'], `"${a.owner}" is not a side`);
  });
  m.hexsides.forEach((h, i) => {
    const a = hex('map.json', ['hexsides', i, 'between', 0], h.between[0]);
    const b = hex('map.json', ['hexsides', i, 'between', 1], h.between[1]);
    if (a >= 0 && b >= 0 && grid.directionTo(a, b) < 0) report('map.json', ['hexsides', i, 'between'], 'the two hexes are not adjacent');
    if (!Object.hasOwn(s.terrain.hexsides, h.feature)) report('map.json', ['hexsides', i, 'feature'], `hexside feature "${h.feature}" is not defined in terrain.json`);
  });
  m.overlays.forEach((o, i) => {
    needOverlay(o.overlay, ['overlays', i, 'overlay'], true);
    o.hexes.forEach((h, j) => hex('map.json', ['overlays', i, 'hexes', j], h));
  });
  m.networks.forEach((n, i) => {
    needOverlay(n.overlay, ['networks', i, 'overlay'], true);
    n.paths.forEach((p, j) => {
      let prev = -1;
      p.forEach((label, k) => {
        const cur = hex('map.json', ['networks', i, 'paths', j, k], label);
        if (prev >= 0 && cur >= 0 && grid.directionTo(prev, cur) < 0)
          report('map.json', ['networks', i, 'paths', j, k], `"${label}" is not adjacent to the previous hex`);
        prev = cur;
      });
    });
  });
}

function checkTerrain(s: Scenario, report: Report): void {
  const classes = new Set(Object.keys(s.rules.movementClasses));
  const media = new Set(Object.values(s.terrain.terrain).map((t) => t.medium));
  const names = new Set([...Object.keys(s.terrain.terrain), ...Object.keys(s.terrain.overlays), ...media]);
  const classKeys = (path: PropertyKey[], table: Readonly<Record<string, unknown>>) => {
    for (const k of Object.keys(table))
      if (k !== '*' && !classes.has(k)) report('terrain.json', [...path, k], `"${k}" is not a movement class of rules.json`);
  };
  const targetClasses = new Set(s.rules.targetClasses);
  const effects = (path: PropertyKey[], list: readonly { attackerClasses?: readonly string[] | undefined; ignoredByClasses?: readonly string[] | undefined }[]) =>
    list.forEach((e, i) => {
      (e.attackerClasses ?? []).forEach((c, j) => {
        if (!classes.has(c)) report('terrain.json', [...path, i, 'attackerClasses', j], `"${c}" is not a movement class`);
      });
      (e.ignoredByClasses ?? []).forEach((c, j) => {
        if (!targetClasses.has(c)) report('terrain.json', [...path, i, 'ignoredByClasses', j], `"${c}" is not a target class of rules.json`);
      });
    });
  for (const [kind, group] of [
    ['terrain', s.terrain.terrain],
    ['overlays', s.terrain.overlays],
  ] as const) {
    for (const [id, t] of Object.entries(group)) {
      classKeys([kind, id, 'movement'], t.movement);
      effects([kind, id, 'effects'], t.effects);
      const noLoading: readonly string[] = t.noLoadingClasses ?? [];
      noLoading.forEach((c, j) => {
        if (!classes.has(c)) report('terrain.json', [kind, id, 'noLoadingClasses', j], `"${c}" is not a movement class`);
      });
    }
  }
  for (const [id, o] of Object.entries(s.terrain.overlays))
    o.alsoFrom.forEach((n, j) => {
      if (!names.has(n)) report('terrain.json', ['overlays', id, 'alsoFrom', j], `"${n}" is not a terrain, overlay or medium`);
    });
  for (const [id, h] of Object.entries(s.terrain.hexsides)) {
    classKeys(['hexsides', id, 'movement'], h.movement);
    effects(['hexsides', id, 'effects'], h.effects);
    h.negatedBy.forEach((n, j) => {
      if (!Object.hasOwn(s.terrain.overlays, n)) report('terrain.json', ['hexsides', id, 'negatedBy', j], `"${n}" is not an overlay`);
    });
  }
}

function checkRules(s: Scenario, hex: HexCheck, report: Report): void {
  if (s.rules.combat.odds !== undefined) checkOddsTable(s.rules.combat.odds, report);
  s.rules.visibility.seenCargo.forEach((c, i) =>
    c.terrain.forEach((t, j) => {
      if (!Object.hasOwn(s.terrain.terrain, t)) report('rules.json', ['visibility', 'seenCargo', i, 'terrain', j], `terrain "${t}" is not defined in terrain.json`);
    }),
  );
  s.rules.stacking.exceptions.forEach((e, i) => {
    if (e.kind === 'overlay' && !Object.hasOwn(s.terrain.overlays, e.overlay))
      report('rules.json', ['stacking', 'exceptions', i, 'overlay'], `"${e.overlay}" is not an overlay of terrain.json`);
    if (e.kind === 'area') checkArea(s, 'rules.json', ['stacking', 'exceptions', i, 'area'], e.area, hex, report);
  });
}

function checkUnits(s: Scenario, sides: ReadonlySet<string>, report: Report): void {
  const targets = new Set(s.rules.targetClasses);
  for (const [id, t] of Object.entries(s.units.types)) {
    const p = ['types', id];
    if (!Object.hasOwn(s.rules.movementClasses, t.movementClass)) report('units.json', [...p, 'movementClass'], `"${t.movementClass}" is not a movement class of rules.json`);
    if (!targets.has(t.targetClass)) report('units.json', [...p, 'targetClass'], `"${t.targetClass}" is not a target class of rules.json`);
    for (const [m, c] of Object.entries(t.targetClassByMedium))
      if (!targets.has(c)) report('units.json', [...p, 'targetClassByMedium', m], `"${c}" is not a target class`);
    for (const k of Object.keys(t.strength))
      if (!targets.has(k)) report('units.json', [...p, 'strength', k], `"${k}" is not a target class`);
    if (t.side !== undefined && !sides.has(t.side)) report('units.json', [...p, 'side'], `"${t.side}" is not a side`);
  }
}

function checkOob(
  s: Scenario,
  sides: ReadonlySet<string>,
  hex: HexCheck,
  report: Report,
): ReadonlySet<string> {
  const ids = new Map<string, string>();
  s.oob.units.forEach((u, i) => {
    const expanded = u.count === undefined ? [u.id] : Array.from({ length: u.count }, (_, k) => `${u.id}-${k + 1}`);
    for (const id of expanded) {
      if (ids.has(id)) report('oob.json', ['units', i, 'id'], `unit id "${id}" is used twice`);
      ids.set(id, u.type);
    }
  });
  s.oob.units.forEach((u, i) => {
    const p = ['units', i];
    const type = s.units.types[u.type];
    if (type === undefined) report('oob.json', [...p, 'type'], `unit type "${u.type}" is not defined in units.json`);
    if (!sides.has(u.side)) report('oob.json', [...p, 'side'], `"${u.side}" is not a side`);
    if (type?.side !== undefined && type.side !== u.side) report('oob.json', [...p, 'side'], `type "${u.type}" belongs to side "${type.side}"`);
    const at = u.at;
    if ('hex' in at) hex('oob.json', [...p, 'at', 'hex'], at.hex);
    if ('carrier' in at) {
      const ct = ids.get(at.carrier);
      if (ct === undefined) report('oob.json', [...p, 'at', 'carrier'], `carrier "${at.carrier}" is not a unit of the order of battle`);
      else if (s.units.types[ct]?.transport === undefined) report('oob.json', [...p, 'at', 'carrier'], `"${at.carrier}" (${ct}) is not a transport`);
    }
    if ('zone' in at && !Object.hasOwn(s.setup.zones, at.zone)) report('oob.json', [...p, 'at', 'zone'], `zone "${at.zone}" is not defined in setup.json`);
  });
  return new Set(ids.keys());
}
