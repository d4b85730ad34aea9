import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testScenarioFiles } from '../rules/testing/scenario-files';
import { ScenarioError } from '../rules/model/scenario-error';
import { mapSchema } from '../rules/model/schema/map.schema';
import { loadScenario } from './load-scenario';

function folder(files: Record<string, unknown>, raw: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
  for (const [name, json] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(json, null, 2));
  for (const [name, text] of Object.entries(raw)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('loadScenario', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const make = (files: Record<string, unknown>, raw?: Record<string, string>) => {
    const d = folder(files, raw);
    dirs.push(d);
    return d;
  };

  it('loads a scenario folder and ignores notes', () => {
    const s = loadScenario(make(testScenarioFiles(), { 'README.md': '# notes' }));
    expect(s.manifest.id).toBe('kernel-test');
    expect(s.map.columns).toBe(12);
  });

  it('refuses JSON that does not parse, naming the file and the line', () => {
    expect(() => loadScenario(make({ ...testScenarioFiles() }, { 'units.json': '{\n  "types": {\n    "x": }\n}' }))).toThrow(/units\.json at \(top\): is not valid JSON: .*line 3/);
  });

  it('refuses a schema mistake, naming the file and the JSON path', () => {
    const files = testScenarioFiles();
    (files['map.json'] as { rows: number }).rows = 11;
    let err: unknown;
    try {
      loadScenario(make(files));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ScenarioError);
    expect((err as ScenarioError).issues[0]).toEqual({ file: 'map.json', path: 'terrainRows', message: 'has 10 rows, "rows" says 11' });
  });

  it('refuses a folder with a missing file, and a path that is not a folder', () => {
    const files = testScenarioFiles();
    delete files['oob.json'];
    expect(() => loadScenario(make(files))).toThrow(/oob\.json at \(top\): file is missing/);
    expect(() => loadScenario('/nonexistent/scenario')).toThrow(/is not a scenario folder/);
  });

  it('accepts the Gators! Unnarstan map with the kernel schema (the map file alone)', () => {
    const map = JSON.parse(readFileSync(join(__dirname, 'gators-unnarstan', 'map.json'), 'utf8')) as unknown;
    const r = mapSchema.safeParse(map);
    expect(r.success ? [] : r.error.issues).toEqual([]);
  });
});
