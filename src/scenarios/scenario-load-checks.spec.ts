import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../games/load-catalog';
import { logger } from '../logging/logger';
import { ScenarioError } from '../rules/model/scenario-error';
import { SYSTEMS } from '../rules/systems';
import { gators } from '../rules/systems/gators';
import { testScenarioFiles } from '../rules/testing/scenario-files';
import { testSystem } from '../rules/testing/test-system';
import { loadScenario } from './load-scenario';

/**
 * Scenario mistakes refused at load, the way the server loads (loadCatalog with the real
 * systems): a copy of the real gators-unnarstan folder broken one thing at a time. Each used to
 * be accepted, and failed at game start, mid-game or never (found by an audit).
 */
const REAL = join(__dirname, 'gators-unnarstan');
const tmp: string[] = [];
afterAll(() => tmp.forEach((d) => rmSync(d, { recursive: true, force: true })));

/* eslint-disable @typescript-eslint/no-explicit-any */
type Files = Record<string, any>;
function copy(edit: (f: Files) => void = () => {}): string {
  const root = mkdtempSync(join(tmpdir(), 'scenario-load-'));
  tmp.push(root);
  const dir = join(root, 'gators-unnarstan');
  cpSync(REAL, dir, { recursive: true });
  const files: Files = {};
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) files[f] = JSON.parse(readFileSync(join(dir, f), 'utf8'));
  edit(files);
  for (const [f, j] of Object.entries(files)) writeFileSync(join(dir, f), JSON.stringify(j, null, 2));
  return root;
}

function refusal(root: string): ScenarioError {
  try {
    loadCatalog(SYSTEMS, root);
  } catch (e) {
    if (e instanceof ScenarioError) return e;
    throw e;
  }
  throw new Error('the scenario was accepted');
}

const odds = (f: Files) => f['rules.json'].combat.odds;

/** A hex of the map with terrain character ch on no road. */
function hexOf(f: Files, ch: string): string {
  const m = f['map.json'];
  const onRoad = new Set<string>(m.roads.flat());
  for (let r = 0; r < m.rows; r++)
    for (let c = 0; c < m.columns; c++) {
      const label = String(c + 1).padStart(2, '0') + String(r + 1).padStart(2, '0');
      if (m.terrainRows[r][c] === ch && !onRoad.has(label)) return label;
    }
  throw new Error(`no hex "${ch}" off the roads`);
}

describe('scenario checks at load (loadCatalog)', () => {
  it('loads the real gators-unnarstan scenario, unchanged', () => {
    expect(loadCatalog(SYSTEMS, copy()).get('gators-unnarstan')?.systemId).toBe('gators');
  });

  it('loads the kernel test scenario with its system', () => {
    const root = mkdtempSync(join(tmpdir(), 'scenario-load-'));
    tmp.push(root);
    mkdirSync(join(root, 'kernel-test'));
    for (const [f, j] of Object.entries(testScenarioFiles())) writeFileSync(join(root, 'kernel-test', f), JSON.stringify(j));
    expect(loadCatalog([...SYSTEMS, testSystem], root).get('kernel-test')?.systemId).toBe('kernel-test');
  });

  it('keeps every system it has when no folder names it, for the games already played with it', () => {
    const root = mkdtempSync(join(tmpdir(), 'scenario-load-'));
    tmp.push(root);
    const catalog = loadCatalog(SYSTEMS, root);
    expect(catalog.list()).toEqual([]);
    expect(catalog.system('gators')).toBe(gators);
  });

  it.each<[string, (f: Files) => void, RegExp]>([
    ['1. a phase kind the system does not play', (f) => (f['turns.json'].phases[0].kind = 'lanch'), /turns\.json at phases\[0\]\.kind: system gators has no phase kind "lanch"/],
    ['2. a module naming no feature', (f) => f['scenario.json'].modules.push('no-such-feature'), /scenario\.json at modules\[14\]: "no-such-feature" is not a Gators! rule module/],
    ['3. a setup constraint naming a unit not in oob.json', (f) => (f['setup.json'].constraints[0].unit = 'p1-lsx'), /setup\.json at constraints\[0\]\.unit: "p1-lsx" is not a unit of oob\.json/],
    ['4. victory requiring a tag no unit type has', (f) => (f['victory.json'].conditions[0].requires[1].tags = ['uh-1m']), /victory\.json at conditions\[0\]\.requires\[1\]\.tags\[0\]: no unit type of units\.json has tag "uh-1m"/],
    ['5. a bridge on no road', (f) => (f['map.json'].bridges[6].hex = hexOf(f, 'J')), /map\.json at bridges\[6\]\.hex: bridge "\d+" is on no road/],
    [
      '6. a loadout keyed by a unit type units.json lacks',
      (f) => {
        const l = f['rules.json'].combat.airAttack.loadouts;
        l['f-5x'] = l['f-5a'];
        delete l['f-5a'];
      },
      /rules\.json at combat\.airAttack\.loadouts\["f-5x"\]: "f-5x" is not a unit type of units\.json/,
    ],
    ['7. a sabotage column not in the combat table', (f) => (f['rules.json'].combat.sabotage.targets[0].column = '9'), /rules\.json at combat\.sabotage\.targets\[0\]\.column: "9" is not a column of the combat table/],
    ['8. a breakdown die that is not a number', (f) => (f['rules.json'].combat.breakdown.die = 'six'), /rules\.json at combat\.breakdown\.die: /],
    ['9. a negative number of launch slots', (f) => (f['rules.json'].combat.airOps.launchSlots = -3), /rules\.json at combat\.airOps\.launchSlots: /],
    [
      '10. a misspelt option',
      (f) => {
        delete f['scenario.json'].options.debrisMarkers;
        f['scenario.json'].options.debrisMarker = 3;
      },
      /scenario\.json at options\.debrisMarker: "debrisMarker" is not a known key here/,
    ],
    ['10. a misspelt key in a rules section', (f) => (f['rules.json'].combat.debris.trap.colum = '2'), /rules\.json at combat\.debris\.trap\.colum: "colum" is not a known key/],
    ['10. a misspelt combat section', (f) => (f['rules.json'].combat.sabotgae = {}), /rules\.json at combat\.sabotgae: "sabotgae" is not a combat section Gators! reads/],
    ['11. a defending side that is no side', (f) => (f['scenario.json'].options.defendingSide = 'P3'), /scenario\.json at options\.defendingSide: "P3" is not a side of scenario\.json/],
    ['a breakdown roll with no result', (f) => f['rules.json'].combat.breakdown.results.pop(), /rules\.json at combat\.breakdown\.results: no result for a roll of 5/],
    ['a medics roll off the die', (f) => (f['rules.json'].combat.medics.rolls = [5, 7]), /rules\.json at combat\.medics\.rolls\[1\]: 7 cannot be rolled on a 6-sided die/],
    ['a written tag no unit has', (f) => (f['rules.json'].combat.debris.blocksTags = ['vehicel']), /rules\.json at combat\.debris\.blocksTags\[0\]: no unit type of units\.json has tag "vehicel"/],
    ['a setup limit naming a tag no unit has', (f) => (f['rules.json'].combat.setup.airborneTags = ['f-5x']), /rules\.json at combat\.setup\.airborneTags\[0\]: no unit type of units\.json has tag "f-5x"/],
    ['a guerrilla need off its own die', (f) => ((f['rules.json'].combat.guerrillas.die = 4), (f['rules.json'].combat.guerrillas.need = 5)), /rules\.json at combat\.guerrillas\.need: 5 cannot be rolled on a 4-sided die/],
    ['setup limits that need arming without the air-attack module', (f) => (f['scenario.json'].modules = f['scenario.json'].modules.filter((m: string) => m !== 'air-attack')), /rules\.json at combat\.setup\.airborneTags: needs the "air-attack" module/],
    ['a city next to the capital as its own entry (GT-3.16)', (f) => f['map.json'].cities.push({ id: 'suburb', name: 'Suburb', hexes: ['1817'], capital: false }), /map\.json at cities\[0\]\.hexes: cities "santa-unna" and "suburb" touch: adjacent city hexes are one city \(GT-3\.16\)/],
    ['a city in two parts (GT-3.16)', (f) => f['map.json'].cities.find((c: { id: string }) => c.id === 'cerro-alto').hexes.push('2013'), /map\.json at cities\[5\]\.hexes: city "cerro-alto" is not one group of adjacent hexes: its parts are separate cities \(GT-3\.16\)/],
    ['a cargo-seen flag nothing sets (Q-GT-49)', (f) => (f['rules.json'].visibility.seenCargoWhen = ['firedAbord']), /rules\.json at visibility\.seenCargoWhen\[0\]: "firedAbord" is not a flag Gators! sets \(firedAboard\)/],
    ['a marker of no loadout', (f) => (f['rules.json'].combat.airOps.heavyMarkers = ['Gruond']), /rules\.json at combat\.airOps\.heavyMarkers\[0\]: "Gruond" is not a marker/],
    ['a gap between combat table columns (a 6:1 read on no column)', (f) => (odds(f).columns[9].min = 7), /rules\.json at combat\.odds\.columns\[9\]: no column for odds 6 \(columns\[8\] "5" ends at 5, this one starts at 7\)/],
    ['overlapping combat table columns', (f) => (odds(f).columns[9].min = 5), /rules\.json at combat\.odds\.columns\[9\]: this column and columns\[8\] "5" both hold odds 5/],
    ['a combat table column whose min is above its max', (f) => Object.assign(odds(f).columns[5], { min: 3, max: 2 }), /rules\.json at combat\.odds\.columns\[5\]: min 3 is above max 2/],
    [
      'combat table columns out of order',
      (f) => (Object.assign(odds(f).columns[4], { min: 2, max: 2 }), Object.assign(odds(f).columns[5], { min: 1, max: 1 })),
      /rules\.json at combat\.odds\.columns\[5\]: odds 1 come before columns\[4\] "1" \(2 to 2\): columns go from the lowest odds to the highest/,
    ],
    ['a combat table column open below in the middle of the table', (f) => delete odds(f).columns[5].min, /rules\.json at combat\.odds\.columns\[5\]: only the first column may leave out "min"/],
    ['a combat table column open above in the middle of the table', (f) => delete odds(f).columns[5].max, /rules\.json at combat\.odds\.columns\[5\]: only the last column may leave out "max"/],
    ['a turn in which no side acts', (f) => f['turns.json'].phases.forEach((p: { auto: boolean }) => (p.auto = true)), /turns\.json at phases: every phase is "auto": no side would ever act, and the game would run by itself/],
    ['a side that acts in no phase (its seat could do nothing, yet the game waits for it to be taken)', (f) => f['scenario.json'].sides.push({ id: 'P3', name: 'Onlookers' }), /scenario\.json at sides\[2\]: side "P3" acts in no phase of turns\.json/],
    ['a turn track without end', (f) => (f['turns.json'].turns = 10_001), /turns\.json at turns: /],
    ['a setup zone on a terrain the map lacks', (f) => (f['setup.json'].zones['p1-sea'].terrain = ['lowland']), /setup\.json at zones\["p1-sea"\]\.terrain\[0\]: no hex of map\.json is "lowland"/],
    ['a setup zone on a misspelt medium', (f) => (f['setup.json'].zones['p2-land'].medium = 'lnd'), /setup\.json at zones\["p2-land"\]\.medium: "lnd" is not a medium of terrain\.json \(land, water\)/],
    ['a setup zone next to a misspelt medium', (f) => (f['setup.json'].zones['p2-shore'].adjacentToMedium = 'lnd'), /setup\.json at zones\["p2-shore"\]\.adjacentToMedium: "lnd" is not a medium of terrain\.json/],
    [
      'a small team that may crew a FAV but does not uncover a "?" in jungle (GT-6L.3: the uncovering would tell which team crews it)',
      (f) => (f['units.json'].types['seal-team'].tags = f['units.json'].types['seal-team'].tags.filter((t: string) => t !== 'recon')),
      /units\.json at types\["seal-team"\]\.tags: "seal-team" may crew "fav" \(GT-2\.20\) but has none of the tags that uncover a "\?" in jungle \(rules\.json combat\.camouflage\.uncoverTags: recon\)/,
    ],
    [
      'uncovering tags that some small team able to crew a FAV lacks',
      (f) => (f['rules.json'].combat.camouflage.uncoverTags = ['seal']),
      /units\.json at types\["recon-team"\]\.tags: "recon-team" may crew "fav" \(GT-2\.20\) but has none of the tags that uncover a "\?" in jungle \(rules\.json combat\.camouflage\.uncoverTags: seal\)/,
    ],
    [
      'a small team that does not uncover starting aboard a FAV whose transport would not take it (oob.json is not held to accepts)',
      (f) => {
        const seal = f['units.json'].types['seal-team'];
        seal.tags = seal.tags.filter((t: string) => t !== 'recon');
        f['units.json'].types['fav'].transport.accepts = ['recon'];
        f['oob.json'].units.find((u: { id: string }) => u.id === 'p1-seal').at = { carrier: 'p1-fav-2' };
      },
      /units\.json at types\["seal-team"\]\.tags: "seal-team" may crew "fav" \(GT-2\.20\)/,
    ],
    ['a game system this server does not have', (f) => (f['scenario.json'].system = 'grav-armor'), /scenario\.json at system: game system "grav-armor" is not one this server has \(it has: gators\)/],
  ])('refuses %s, naming the file and the field', (_name, edit, where) => {
    expect(refusal(copy(edit)).message).toMatch(where);
  });

  it('loads a small team that does not uncover where no FAV can take it aboard', () => {
    const root = copy((f) => {
      const seal = f['units.json'].types['seal-team'];
      seal.tags = seal.tags.filter((t: string) => t !== 'recon');
      f['units.json'].types['fav'].transport.accepts = ['recon'];
    });
    expect(loadCatalog(SYSTEMS, root).get('gators-unnarstan')?.systemId).toBe('gators');
  });

  it('refuses a map.json that is a folder, naming the file', () => {
    const root = copy();
    rmSync(join(root, 'gators-unnarstan', 'map.json'));
    mkdirSync(join(root, 'gators-unnarstan', 'map.json'));
    expect(refusal(root).message).toMatch(/map\.json at \(top\): is a folder, not a file/);
  });

  // JSON.parse keeps the last of two equal keys: a unit type copied and not renamed replaced the first unnoticed.
  it('refuses a key an object repeats, naming the file and the key, in every file and at any depth', () => {
    const root = copy();
    const units = join(root, 'gators-unnarstan', 'units.json');
    const text = readFileSync(units, 'utf8');
    const first = Object.keys(JSON.parse(text).types)[0]!;
    writeFileSync(units, text.replace(/"types": \{/, `"types": {\n    "${first}": { "repeated": true },`));
    const terrain = join(root, 'gators-unnarstan', 'terrain.json');
    writeFileSync(terrain, readFileSync(terrain, 'utf8').replace(/^\{/, '{\n  "a": 1,\n  "a": 2,'));
    const message = refusal(root).message;
    expect(message).toContain(`units.json at types${/^[A-Za-z_$][\w$]*$/.test(first) ? `.${first}` : `["${first}"]`}: this key appears twice in its object`);
    expect(message).toContain('terrain.json at a: this key appears twice in its object');
  });

  it('refuses two folders with the same scenario id, naming both', () => {
    const root = copy();
    cpSync(join(root, 'gators-unnarstan'), join(root, 'gators-copy'), { recursive: true });
    expect(refusal(root).message).toMatch(/^scenario gators-unnarstan refused: 1 mistake\n {2}scenario\.json at id: "gators-unnarstan" is already the id of the scenario in folder gators-copy/);
  });

  it('skips a folder without scenario.json (still being authored), saying so in one line', () => {
    const root = copy();
    mkdirSync(join(root, 'draft'));
    writeFileSync(join(root, 'draft', 'map.json'), '{}');
    const warn = jest.spyOn(logger(), 'warn').mockImplementation(() => undefined);
    try {
      expect(loadCatalog(SYSTEMS, root).list().map((e) => e.id)).toEqual(['gators-unnarstan']);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(JSON.stringify(warn.mock.calls[0])).toMatch(/scenario folder draft skipped: it has no scenario\.json/);
    } finally {
      warn.mockRestore();
    }
  });

  it('start refuses a broken scenario handed to it directly, with the same ScenarioError', () => {
    const s = loadScenario(join(copy((f) => (f['rules.json'].combat.airOps.launchSlots = -3)), 'gators-unnarstan'));
    expect(() => gators.start(s, { sides: ['P1', 'P2'] })).toThrow(ScenarioError);
  });
});
