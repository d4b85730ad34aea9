import { testScenarioFiles } from '../testing/scenario-files';
import { checkScenario, parseScenario } from './parse-scenario';
import { ScenarioError } from './scenario-error';

type Edit = (files: Record<string, unknown>) => void;

/** The container at `path` inside the files (objects and arrays alike). */
function at(files: Record<string, unknown>, path: readonly (string | number)[]): Record<string | number, unknown> {
  let cur: unknown = files;
  for (const k of path) cur = (cur as Record<string | number, unknown>)[k];
  return cur as Record<string | number, unknown>;
}
const set = (path: (string | number)[], value: unknown): Edit => (f) => (at(f, path.slice(0, -1))[path[path.length - 1]!] = value);
const del = (path: (string | number)[]): Edit => (f) => delete at(f, path.slice(0, -1))[path[path.length - 1]!];
const push = (path: (string | number)[], value: unknown): Edit => (f) => (at(f, path) as unknown as unknown[]).push(value);
const pop = (path: (string | number)[]): Edit => (f) => (at(f, path) as unknown as unknown[]).pop();

function mutate(...edits: Edit[]): Record<string, unknown> {
  const files = testScenarioFiles();
  for (const e of edits) e(files);
  return files;
}

function issuesOf(files: Record<string, unknown>): string[] {
  const r = checkScenario(files);
  if (r.ok) return [];
  return r.issues.map((i) => `${i.file} at ${i.path}: ${i.message}`);
}

describe('parseScenario', () => {
  it('accepts the test scenario', () => {
    const s = parseScenario(testScenarioFiles());
    expect(s.manifest.id).toBe('kernel-test');
    expect(s.map.bridges[0]!.passage).toEqual({ A: [], B: ['*'] });
  });

  it('names the file and the JSON path of a shape mistake', () => {
    const issues = issuesOf(mutate(set(['units.json', 'types', 'tank', 'speed'], 'fast')));
    expect(issues).toEqual([expect.stringMatching(/^units\.json at types\.tank\.speed: /)]);
  });

  it('refuses unknown keys (typos) with their path', () => {
    const issues = issuesOf(mutate(set(['terrain.json', 'terrain', 'clear', 'movment'], {})));
    expect(issues[0]).toMatch(/^terrain\.json at terrain\.clear\.movment: "movment" is not a known key/);
  });

  it('refuses a missing file', () => {
    expect(issuesOf(mutate(del(['victory.json'])))).toEqual(['victory.json at : file is missing']);
  });

  it.each([
    ['a short terrain row', set(['map.json', 'terrainRows', 3], '~~-b'), /^map\.json at terrainRows\[3\]: row 4 has 4 characters/],
    ['a character not in the legend', set(['map.json', 'terrainRows', 0], '~~-b..hhh..Q'), /^map\.json at terrainRows\[0\]: character "Q"/],
    ['a legend entry naming no terrain', set(['map.json', 'legend', 's'], 'marsh'), /^map\.json at legend\.s: terrain "marsh"/],
    ['a road that jumps', push(['map.json', 'roads', 0], '1110'), /^map\.json at roads\[0\]\[7\]: .*(not adjacent|off-map)/],
    ['a hex off the board', set(['map.json', 'cities', 0, 'hexes'], ['1320']), /^map\.json at cities\[0\]\.hexes\[0\]: "1320" is not a hex/],
    ['an off-map hex', set(['map.json', 'airfields', 0, 'hexes'], ['1110']), /^map\.json at airfields\[0\]\.hexes\[0\]: "1110" is off-map/],
    ['a bridge passage for an unknown side', set(['map.json', 'bridges', 0, 'passage', 'C'], 'all'), /^map\.json at bridges\[0\]\.passage\.C: "C" is not a side/],
    ['an unknown movement class in the legend', set(['terrain.json', 'terrain', 'clear', 'movement', 'mech'], { cost: 1 }), /^terrain\.json at terrain\.clear\.movement\.mech/],
    ['a terrain effect above which an unknown target class stands', set(['terrain.json', 'overlays', 'city', 'effects', 0, 'ignoredByClasses'], ['airr']), /^terrain\.json at overlays\.city\.effects\[0\]\.ignoredByClasses\[0\]: "airr" is not a target class/],
    ['a table row of the wrong length', pop(['rules.json', 'combat', 'odds', 'table', 2]), /^rules\.json at combat\.odds\.table\[2\]: has 9 entries/],
    ['a unit of an unknown type', set(['oob.json', 'units', 0, 'type'], 'zeppelin'), /^oob\.json at units\[0\]\.type: unit type "zeppelin"/],
    ['a unit id every object already has', set(['oob.json', 'units', 0, 'id'], 'constructor'), /^oob\.json at units\[0\]\.id: an id may not be the name of a property every object has/],
    ['a duplicate unit id', push(['oob.json', 'units'], { id: 'a-ship', type: 'ship', side: 'A' }), /^oob\.json at units\[8\]\.id: unit id "a-ship" is used twice/],
    ['a carrier that carries nothing', set(['oob.json', 'units', 3, 'at'], { carrier: 'a-plt-1' }), /^oob\.json at units\[3\]\.at\.carrier: "a-plt-1" \(rifle-platoon\) is not a transport/],
    ['a sequential phase without a side', del(['turns.json', 'phases', 0, 'side']), /^turns\.json at phases\[0\]: a sequential phase needs "side"/],
    ['more turn phases than the phase machine runs', set(['turns.json', 'phases'], Array.from({ length: 1001 }, (_, i) => ({ id: `p${i}`, kind: 'end', auto: true }))), /^turns\.json at phases: /],
    ['more setup phases than the phase machine runs', set(['turns.json', 'setup'], Array.from({ length: 1001 }, (_, i) => ({ id: `s${i}`, kind: 'end', auto: true }))), /^turns\.json at setup: /],
    ['a victory city that does not exist', set(['victory.json', 'conditions', 0, 'area'], { city: 'atlantis' }), /^victory\.json at conditions\[0\]\.area\.city/],
    ['a stacking area off the board', push(['rules.json', 'stacking', 'exceptions'], { kind: 'area', area: { hexes: ['1320'] }, tags: ['helicopter'], ruleId: 'Q-GT-46' }), /^rules\.json at stacking\.exceptions\[\d+\]\.area\.hexes\[0\]: "1320" is not a hex/],
  ])('refuses %s', (_name, edit, pattern) => {
    const issues = issuesOf(mutate(edit));
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.some((i) => pattern.test(i))).toBe(true);
  });

  it('accepts combat table columns closed at both ends (odds beyond them read on the end column)', () => {
    const issues = issuesOf(mutate(set(['rules.json', 'combat', 'odds', 'columns', 0, 'min'], -9), set(['rules.json', 'combat', 'odds', 'columns', 9, 'max'], 20)));
    expect(issues).toEqual([]);
  });

  it('throws one ScenarioError that lists every mistake', () => {
    const files = mutate(set(['units.json', 'types', 'tank', 'speed'], -1), set(['oob.json', 'units', 0, 'side'], 'Z'));
    expect(() => parseScenario(files)).toThrow(ScenarioError);
    try {
      parseScenario(files);
    } catch (e) {
      expect((e as Error).message).toMatch(/scenario "kernel-test" refused: 1 mistake\n {2}units\.json at types\.tank\.speed/);
    }
  });
});
