import fc from 'fast-check';
import { SeededDice } from '../dice/seeded-dice';
import { JsonObject } from '../model/json';
import { UnitState } from '../model/state';
import { buildState } from '../testing/prestate';
import { testScenario } from '../testing/scenario-files';
import { TestState, testSystem } from '../testing/test-system';
import { boardOf } from './board';
import { checkMove } from './movement/moves';
import { canStandIn } from './transport';
import { RawSubmission, Viewer } from './types';
import { GameView } from './view';
import { concealedFrom, eventAsSeenBy } from './visibility';

const scenario = testScenario();
const board = boardOf(scenario);
const A_TYPES = ['rifle-platoon', 'squad', 'recon', 'tank', 'truck', 'fast-car', 'howitzer', 'apc', 'lav', 'lcac', 'lcu', 'helicopter', 'jet', 'ship', 'javelin'];
const B_TYPES = ['infantry', 'militia', 'aa-team', 'm48', 'jeep-tow', 'mortar', 'patrol-boat', 'b-truck', 'hawk', 'bunker'];
const PHASES = ['a-move', 'a-attack', 'b-move', 'b-attack'];

interface Pick {
  readonly type: string;
  readonly side: 'A' | 'B';
  readonly at: number;
  readonly hidden: boolean;
  readonly flags: number;
}

const pickArb: fc.Arbitrary<Pick> = fc.record({
  type: fc.oneof(fc.constantFrom(...A_TYPES), fc.constantFrom(...B_TYPES)),
  side: fc.constant('A' as const),
  at: fc.integer({ min: 0, max: board.grid.size - 1 }),
  hidden: fc.boolean(),
  flags: fc.integer({ min: 0, max: 15 }),
}).map((p) => ({ ...p, side: B_TYPES.includes(p.type) ? ('B' as const) : ('A' as const) }));

/**
 * A random position: units on hexes they may stand in, one per hex, some Red
 * units concealed, a few carried. Generated as a compact prestate (so that
 * counterexamples print small) and built into a state by `built`.
 */
const prestateArb = fc.record({ picks: fc.array(pickArb, { minLength: 1, maxLength: 24 }), phase: fc.constantFrom(...PHASES), turn: fc.integer({ min: 1, max: 3 }) }).map(({ picks, phase, turn }) => {
  const used = new Set<number>();
  const units: Record<string, unknown>[] = [];
  picks.forEach((p, k) => {
    const t = scenario.units.types[p.type]!;
    const id = `${p.side}${k}u${p.type.length}x`;
    let at = p.at;
    for (let tries = 0; tries < board.grid.size && (used.has(at) || !canStandIn(board, t, at)); tries++) at = (at + 7) % board.grid.size;
    if (used.has(at) || !canStandIn(board, t, at)) return;
    used.add(at);
    const flags: Record<string, boolean> = {};
    if (p.flags & 1) flags['moved'] = true;
    if (p.flags & 2) flags['attacked'] = true;
    units.push({ id, type: p.type, side: p.side, hex: board.grid.label(at), ...(p.side === 'B' && p.hidden ? { hidden: '?' } : {}), flags });
    if (t.transport !== undefined && p.flags & 4 && p.side === 'A') units.push({ id: `${id}c`, type: 'squad', side: 'A', carrier: id });
  });
  return { phase, turn, units };
});

const stateArb = prestateArb.map((p) => new Built(p));

/** Wraps the state so that fast-check prints only the prestate of a counterexample. */
class Built {
  readonly state: TestState;
  constructor(readonly prestate: { phase: string; turn: number; units: Record<string, unknown>[] }) {
    this.state = buildState(scenario, prestate as never);
  }
  toString(): string {
    return JSON.stringify(this.prestate);
  }
  [fc.toStringMethod](): string {
    return this.toString();
  }
}

function movable(state: TestState, side: string): UnitState[] {
  return Object.values(state.units).filter((u) => u.side === side && u.loc.at === 'hex');
}

describe('properties', () => {
  it('options and validate agree exactly on reachable hexes', () => {
    fc.assert(
      fc.property(stateArb, fc.nat(), fc.array(fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 8 }), { maxLength: 12 }), ({ state: s0 }, pick, walks) => {
        const state = { ...s0, phase: { ...s0.phase, stage: 'turns' as const, index: 0, acting: ['A'], mode: 'sequential' as const } };
        const mine = movable(state, 'A');
        if (mine.length === 0) return;
        const unit = mine[pick % mine.length]!;
        const opts = testSystem.options(state, 'A', unit.id);
        if (Array.isArray(opts)) throw new Error(JSON.stringify(opts));
        const validate = (path: string[]) => {
          const p = testSystem.parse(state, 'A', { kind: 'orders', orders: [{ kind: 'move', unit: unit.id, path }] });
          return p.ok ? testSystem.validate(state, 'A', p.value) : p.violations;
        };
        const byHex = new Map(opts.moves.map((m) => [m.hex, m]));
        for (const m of opts.moves) {
          expect(validate(m.path)).toEqual([]);
          const c = checkMove(state, unit.id, m.path, { knownTo: 'A' });
          expect(c.ok && Math.abs(c.cost - m.cost) < 1e-9).toBe(true);
        }
        const start = board.grid.indexOf((unit.loc as { hex: string }).hex);
        for (const dirs of walks) {
          const path: string[] = [];
          let at = start;
          for (const d of dirs) {
            const n = board.grid.neighbour(at, d);
            if (n < 0) break;
            path.push(board.grid.label(n));
            at = n;
          }
          if (path.length === 0 || validate(path).length > 0) continue;
          const end = path[path.length - 1]!;
          const best = byHex.get(end);
          expect(best).toBeDefined();
          const c = checkMove(state, unit.id, path, { knownTo: 'A' });
          expect(c.ok && best!.cost <= c.cost + 1e-9).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  /**
   * A random position in A's movement phase with a tow yard added where there is room: a
   * howitzer with a truck, a Hawk with two trucks (GT-6K.5), a howitzer in tow.
   */
  const yardArb = fc.tuple(prestateArb, fc.integer({ min: 0, max: board.grid.size - 1 })).map(([p, start]) => {
    const used = new Set(p.units.flatMap((u) => (typeof u['hex'] === 'string' ? [board.grid.indexOf(u['hex'])] : [])));
    const truck = scenario.units.types['truck']!;
    const free: string[] = [];
    for (let k = 0, at = start; k < board.grid.size && free.length < 3; k++, at = (at + 7) % board.grid.size)
      if (!used.has(at) && canStandIn(board, truck, at)) free.push(board.grid.label(at));
    const [h1, h2, h3] = free;
    const yard =
      h3 === undefined
        ? []
        : [
            { id: 'Ay1', type: 'truck', side: 'A', hex: h1 },
            { id: 'Ay2', type: 'howitzer', side: 'A', hex: h1 },
            { id: 'Ay3', type: 'truck', side: 'A', hex: h2 },
            { id: 'Ay4', type: 'truck', side: 'A', hex: h2 },
            { id: 'Ay5', type: 'hawk', side: 'A', hex: h2 },
            { id: 'Ay6', type: 'truck', side: 'A', hex: h3 },
            { id: 'Ay7', type: 'howitzer', side: 'A', towedBy: ['Ay6'] },
          ];
    return new Built({ ...p, phase: 'a-move', units: [...p.units, ...yard] });
  });

  it('every transport option (load, by the cargo or the carrier, unload, hitch, unhitch) sent as one order is accepted, and one it leaves out is refused', () => {
    const tried: Record<string, number> = {};
    const refused = (state: TestState, order: JsonObject) => {
      const p = testSystem.parse(state, 'A', { kind: 'orders', orders: [order] });
      return p.ok ? testSystem.validate(state, 'A', p.value) : p.violations;
    };
    fc.assert(
      fc.property(yardArb, ({ state }) => {
        for (const u of Object.values(state.units).filter((x) => x.side === 'A' && x.loc.at !== 'box')) {
          const opts = testSystem.options(state, 'A', u.id);
          if (Array.isArray(opts)) throw new Error(JSON.stringify(opts));
          const offered = new Set<string>();
          // A carrier driving to the cargo is offered along one path: tried along its own move's.
          const fetchedBy = new Set<string>();
          for (const o of opts.other ?? []) {
            const order: JsonObject = { kind: o.action, unit: u.id, ...(o.detail as JsonObject) };
            offered.add(JSON.stringify(order));
            if (order['mover'] === 'carrier') fetchedBy.add(order['carrier'] as string);
            const key = order['mover'] === 'carrier' ? 'load by carrier' : o.action;
            tried[key] = (tried[key] ?? 0) + 1;
            expect([order, refused(state, order)]).toEqual([order, []]);
          }
          const hex = u.loc.at === 'hex' ? u.loc.hex : null;
          const mates = Object.values(state.units).filter((x) => x.side === 'A' && x.id !== u.id && hex !== null && x.loc.at === 'hex' && x.loc.hex === hex).map((x) => x.id);
          const from = u.loc.at === 'carried' && state.units[u.loc.by]?.loc.at === 'hex' ? board.grid.indexOf((state.units[u.loc.by]!.loc as { hex: string }).hex) : -1;
          const unloads = from < 0 ? [] : [from, ...[0, 1, 2, 3, 4, 5].map((d) => board.grid.neighbour(from, d)).filter((n) => n >= 0)];
          const fetch = (c: UnitState): JsonObject[] => {
            if (hex === null || c.side !== 'A' || c.loc.at !== 'hex' || c.loc.hex === hex || fetchedBy.has(c.id) || scenario.units.types[c.type]?.transport === undefined) return [];
            if (board.grid.distance(board.grid.indexOf(c.loc.hex), board.grid.indexOf(hex)) > 3) return [];
            const o = testSystem.options(state, 'A', c.id);
            const m = Array.isArray(o) ? undefined : o.moves.find((x) => x.hex === hex);
            return m === undefined ? [] : [{ kind: 'load', unit: u.id, carrier: c.id, mover: 'carrier', path: [...m.path] }];
          };
          const others: JsonObject[] = [
            ...mates.map((carrier) => ({ kind: 'load', unit: u.id, carrier })),
            ...Object.values(state.units).flatMap(fetch),
            ...unloads.map((n) => ({ kind: 'unload', unit: u.id, hex: board.grid.label(n) })),
            ...mates.map((t) => ({ kind: 'hitch', unit: u.id, towers: [t] })),
            ...mates.flatMap((t, k) => mates.slice(k + 1).map((t2) => ({ kind: 'hitch', unit: u.id, towers: [t, t2] }))),
            { kind: 'unhitch', unit: u.id },
          ];
          for (const order of others) if (!offered.has(JSON.stringify(order))) expect([order, refused(state, order).length > 0]).toEqual([order, true]);
        }
      }),
      { numRuns: 150 },
    );
    const actions = ['hitch', 'load', 'load by carrier', 'unhitch', 'unload'];
    expect(actions.map((a) => [a, (tried[a] ?? 0) > 0])).toEqual(actions.map((a) => [a, true]));
  });

  const labelArb = fc.oneof(fc.integer({ min: 0, max: board.grid.size - 1 }).map((i) => board.grid.label(i)), fc.constantFrom('0000', '9999', 'x', '', '1109', '00101'));
  const orderArb = (ids: string[]) => {
    const id = fc.oneof(fc.constantFrom(...ids, 'nobody'), fc.string({ maxLength: 4 }));
    return fc.oneof(
      fc.record({ kind: fc.constant('move'), unit: id, path: fc.array(labelArb, { maxLength: 6 }) }),
      fc.record({ kind: fc.constant('move'), unit: id, path: fc.array(labelArb, { minLength: 1, maxLength: 3 }), with: fc.array(id, { maxLength: 2 }) }),
      fc.record({ kind: fc.constant('attack'), attackers: fc.array(fc.record({ unit: id }), { minLength: 1, maxLength: 3 }), target: labelArb }),
      fc.record({ kind: fc.constant('attack'), attackers: fc.array(fc.record({ unit: id, strength: fc.integer({ min: -1, max: 4 }) }), { maxLength: 2 }), target: labelArb }),
      fc.record({ kind: fc.constant('load'), unit: id, carrier: id, path: fc.array(labelArb, { minLength: 1, maxLength: 3 }) }),
      fc.record({ kind: fc.constant('load'), unit: id, carrier: id, mover: fc.constantFrom('cargo', 'carrier') }),
      fc.record({ kind: fc.constant('unload'), unit: id, hex: labelArb }),
      fc.record({ kind: fc.constant('hitch'), unit: id, towers: fc.array(id, { maxLength: 3 }) }),
      fc.record({ kind: fc.constant('unhitch'), unit: id }),
      fc.record({ kind: fc.constant('place'), unit: id, hex: labelArb, hidden: fc.boolean() }),
      fc.anything(),
    );
  };

  it('random order lists never throw: they are accepted or get violations, and accepted ones resolve', () => {
    fc.assert(
      fc.property(
        fc.tuple(stateArb, fc.boolean()).chain(([b0, inSetup]) => {
          const b = inSetup ? { state: buildState(scenario, { ...b0.prestate, phase: 'setup', units: b0.prestate.units.map((u, k) => (k % 2 === 0 ? { ...u, hex: undefined, box: 'setup', attrs: { setupZone: u['side'] === 'A' ? 'a-sea' : 'b-land' } } : u)) } as never) } : b0;
          const ids = Object.keys(b.state.units);
          return fc.tuple(fc.constant(b), fc.array(orderArb(ids.length > 0 ? ids : ['none']), { maxLength: 8 }), fc.constantFrom('A', 'B', 'C'), fc.integer(), fc.constantFrom<RawSubmission['kind']>('orders', 'reaction', 'standing-orders'));
        }),
        ([{ state }, orders, side, seed, kind]) => {
          const p = testSystem.parse(state, side, { kind, orders });
          if (!p.ok) {
            expect(p.violations.length).toBeGreaterThan(0);
            return;
          }
          const v = testSystem.validate(state, side, p.value);
          for (const x of v) expect(typeof x.code === 'string' && typeof x.ruleId === 'string').toBe(true);
          if (v.length > 0) return;
          let s: TestState = state;
          for (const e of testSystem.resolve(state, side, p.value, new SeededDice(seed))) s = testSystem.evolve(s, e);
          expect(s.seq).toBeGreaterThanOrEqual(state.seq);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the same state, orders and dice give the same events, and folding them the same state', () => {
    fc.assert(
      fc.property(stateArb, fc.nat(), fc.nat(), fc.integer(), ({ state: s0 }, pick, hexPick, seed) => {
        const side = s0.phase.acting[0]!;
        const mine = movable(s0, side);
        if (mine.length === 0) return;
        const unit = mine[pick % mine.length]!;
        const opts = testSystem.options(s0, side, unit.id);
        let orders: JsonObject[];
        if (!Array.isArray(opts) && opts.moves.length > 0) orders = [{ kind: 'move', unit: unit.id, path: opts.moves[hexPick % opts.moves.length]!.path }];
        else if (!Array.isArray(opts) && opts.attacks.length > 0) orders = [{ kind: 'attack', attackers: [{ unit: unit.id }], target: opts.attacks[hexPick % opts.attacks.length]!.targetHex }];
        else orders = [];
        const p = testSystem.parse(s0, side, { kind: 'orders', orders });
        if (!p.ok || testSystem.validate(s0, side, p.value).length > 0) return;
        const e1 = testSystem.resolve(s0, side, p.value, new SeededDice(seed));
        const e2 = testSystem.resolve(s0, side, p.value, new SeededDice(seed));
        expect(e2).toEqual(e1);
        const fold = (events: readonly { type: string; data: unknown }[]) => events.reduce<TestState>((s, e) => testSystem.evolve(s, e), s0);
        const a = fold(e1);
        const b = fold(JSON.parse(JSON.stringify(e1)) as typeof e1);
        expect(b).toEqual(a);
        expect(JSON.parse(JSON.stringify(a))).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });

  it('every viewer reads the same markers: a side sees its own as the others see them', () => {
    fc.assert(
      fc.property(stateArb, ({ state }) => {
        const markersFor = (viewer: Viewer) => (testSystem.view(state, viewer) as GameView).markers;
        const seen = markersFor({ kind: 'spectator' });
        // One "?" per hex: the generated positions stand one unit in a hex and put no marked unit in tow.
        const marked = new Set(Object.values(state.units).flatMap((u) => (u.hidden !== undefined && u.loc.at === 'hex' ? [u.loc.hex] : [])));
        expect(seen.map((m) => m.hex)).toEqual([...marked].sort());
        for (const viewer of [{ kind: 'side', side: 'A' }, { kind: 'side', side: 'B' }, { kind: 'referee' }] as const) expect(markersFor(viewer)).toEqual(seen);
      }),
      { numRuns: 200 },
    );
  });

  it('a view never contains the identity of a unit hidden from its viewer, nor do the events that side reads', () => {
    fc.assert(
      fc.property(stateArb, fc.integer(), fc.nat(), ({ state: s0 }, seed, pick) => {
        const check = (state: TestState, extra: readonly unknown[]) => {
          for (const viewer of ['A', 'B']) {
            const secret = Object.values(state.units).filter((u) => concealedFrom(state, u).includes(viewer));
            const text = JSON.stringify([testSystem.view(state, { kind: 'side', side: viewer }), ...extra.map((e) => eventAsSeenBy(e as never, viewer))]);
            for (const u of secret) expect(text.includes(`"${u.id}"`)).toBe(false);
            const shown = new Set(Object.values(state.units).filter((u) => !secret.includes(u)).map((u) => u.type));
            for (const u of secret) if (!shown.has(u.type)) expect(text.includes(`"${u.type}"`)).toBe(false);
          }
        };
        check(s0, []);
        const side = s0.phase.acting[0]!;
        const mine = movable(s0, side);
        if (mine.length === 0) return;
        const unit = mine[pick % mine.length]!;
        const opts = testSystem.options(s0, side, unit.id);
        if (Array.isArray(opts)) return;
        const orders: JsonObject[] =
          opts.moves.length > 0
            ? [{ kind: 'move', unit: unit.id, path: opts.moves[pick % opts.moves.length]!.path }]
            : opts.attacks.length > 0
              ? [{ kind: 'attack', attackers: [{ unit: unit.id }], target: opts.attacks[0]!.targetHex }]
              : [];
        const p = testSystem.parse(s0, side, { kind: 'orders', orders });
        if (!p.ok || testSystem.validate(s0, side, p.value).length > 0) return;
        let s = s0;
        for (const e of testSystem.resolve(s0, side, p.value, new SeededDice(seed))) {
          // What a side reads of an event may not name a unit that is still hidden from it afterwards, unless the event reveals it.
          const next = testSystem.evolve(s, e);
          if (e.reveals !== true) check(next, [e]);
          s = next;
        }
      }),
      { numRuns: 300 },
    );
  });
});
