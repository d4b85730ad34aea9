import { join } from 'node:path';
import { loadCatalog } from '../../../games/load-catalog';
import { loadScenario } from '../../../scenarios/load-scenario';
import { SYSTEMS } from '../index';
import { parseGatorsData } from './data';
import { gators } from './index';

const dir = join(__dirname, '../../../scenarios/gators-unnarstan');

describe('the Gators! Unnarstan scenario folder', () => {
  it('loads and validates, with every counter of GT-9.1 and GT-9.2', () => {
    const s = loadScenario(dir);
    expect(s.manifest.system).toBe('gators');
    const counts = new Map<string, number>();
    let total = 0;
    for (const u of s.oob.units) {
      const n: number = u.count ?? 1;
      counts.set(u.type, (counts.get(u.type) ?? 0) + n);
      total += n;
    }
    expect(total).toBe(240);
    for (const [id, t] of Object.entries(s.units.types)) expect([id, counts.get(id)]).toEqual([id, t.values['count']]);
    expect(() => parseGatorsData(s)).not.toThrow();
  });

  it('is offered by the catalog with the gators system', () => {
    const c = loadCatalog(SYSTEMS);
    const e = c.get('gators-unnarstan');
    expect(e?.systemId).toBe('gators');
    expect(e?.turns).toBe(30);
  });

  it('starts a game in the sealed setup phase', () => {
    const s = loadScenario(dir);
    const events = gators.start(s, { sides: ['P1', 'P2'] });
    const state = events.reduce<ReturnType<typeof gators.evolve> | undefined>((x, e) => gators.evolve(x, e), undefined)!;
    expect(gators.phase(state)).toMatchObject({ phase: 'setup', mode: 'simultaneous', acting: ['P1', 'P2'] });
  });
});
