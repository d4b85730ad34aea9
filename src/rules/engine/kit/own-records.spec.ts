import { z } from 'zod';
import { ForcedDice } from '../../dice/forced-dice';
import { Json, JsonObject } from '../../model/json';
import { GameState } from '../../model/state';
import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { testSpec } from '../../testing/test-system';
import { SECRETS_APPLIED } from '../events';
import { eventAsSeenBy } from '../visibility';
import { defineSystem } from './define-system';
import { OrderHandler } from './types';

/**
 * A run of orders logs its side's records in one event at its end, yet each order of the run
 * sees the records before it in place: "note" writes a record into the side's secret notes,
 * "tell" writes what it finds there.
 */
type Ext = { readonly [key: string]: Json };
const note: OrderHandler<Ext, { kind: 'note'; text: string }> = {
  kind: 'note',
  schema: z.strictObject({ kind: z.literal('note'), text: z.string() }),
  validate: () => [],
  project: (_s, side, o) => [{ type: 'Noted', data: { side, text: o.text } }],
  resolve: (ctx, o) => ctx.emit({ type: 'Noted', data: { side: ctx.side, text: o.text }, visibility: { to: 'sides', sides: [ctx.side] } }),
};
const tell: OrderHandler<Ext, { kind: 'tell' }> = {
  kind: 'tell',
  schema: z.strictObject({ kind: z.literal('tell') }),
  validate: () => [],
  project: () => [],
  resolve: (ctx) => ctx.emit({ type: 'Told', data: { found: ctx.state.sides[ctx.side]!.secret.notes['text'] ?? null }, visibility: { to: 'all' } }),
};

function system(orders: readonly OrderHandler<Ext, unknown>[]) {
  return defineSystem<Ext>({
    ...testSpec,
    records: ['Noted'],
    phases: { ...testSpec.phases, movement: { orders } },
    evolve: (s, e) => {
      if (e.type === 'Told') return s;
      if (e.type !== 'Noted') throw new Error(`unknown event ${e.type}`);
      const d = e.data as { side: string; text: string };
      const side = s.sides[d.side]!;
      return { ...s, sides: { ...s.sides, [d.side]: { ...side, secret: { ...side.secret, notes: { ...side.secret.notes, text: d.text } } } } };
    },
  });
}

function resolved(orders: readonly OrderHandler<Ext, unknown>[], given: JsonObject[]) {
  const sys = system(orders);
  const s = buildState(testScenario(), { phase: 'a-move', units: [] }) as GameState<Ext>;
  const p = sys.parse(s, 'A', { kind: 'orders', orders: given });
  if (!p.ok || sys.validate(s, 'A', p.value).length > 0) throw new Error('refused');
  const events = sys.resolve(s, 'A', p.value, new ForcedDice([]));
  return { sys, s, events };
}

describe('a side\'s own records of a run of orders', () => {
  const orders = [note as OrderHandler<Ext, unknown>, tell as OrderHandler<Ext, unknown>];

  it('are seen in place by the later orders of the run, and logged in one event at its end, which folds to the same game', () => {
    const { sys, s, events } = resolved(orders, [{ kind: 'note', text: 'x' }, { kind: 'tell' }, { kind: 'note', text: 'y' }]);
    expect(events.map((e) => e.type)).toEqual(['Told', SECRETS_APPLIED, 'PhaseAdvanced']);
    expect(events[0]!.data).toEqual({ found: 'x' });
    expect(events[1]!.data).toEqual({ side: 'A', events: [{ type: 'Noted', data: { side: 'A', text: 'x' } }, { type: 'Noted', data: { side: 'A', text: 'y' } }] });
    const after = events.reduce((x, e) => sys.evolve(x, e), s);
    expect(after.sides['A']!.secret.notes['text']).toBe('y');
    expect(after.seq).toBe(s.seq + 3);
  });

  it('are one event to the other side however many they are, none included', () => {
    const read = (given: JsonObject[]) => resolved(orders, given).events.map((e) => JSON.stringify(eventAsSeenBy(e, 'B')));
    const none = read([{ kind: 'tell' }]);
    expect(none).toContain(JSON.stringify({ type: SECRETS_APPLIED, data: { side: 'A' } }));
    expect(read([{ kind: 'note', text: '' }, { kind: 'note', text: '' }, { kind: 'tell' }])).toEqual(read([{ kind: 'note', text: '' }, { kind: 'tell' }]));
  });

  it('are not written for a phase that allows no order kind, as everyone can tell there can be none', () => {
    expect(resolved([], []).events.map((e) => e.type)).toEqual(['PhaseAdvanced']);
  });

  it('fold to the same game when only the order of an object\'s keys differs from the game in place', () => {
    // "tag" writes another key of the same notes: in place the record's key comes first, folded at the end it comes last.
    const tag: OrderHandler<Ext, { kind: 'tag' }> = {
      kind: 'tag',
      schema: z.strictObject({ kind: z.literal('tag') }),
      validate: () => [],
      project: () => [],
      resolve: (ctx) => ctx.emit({ type: 'Tagged', data: {}, visibility: { to: 'all' } }),
    };
    const base = system([note as OrderHandler<Ext, unknown>]);
    const sys = defineSystem<Ext>({
      ...testSpec,
      records: ['Noted'],
      phases: { ...testSpec.phases, movement: { orders: [note as OrderHandler<Ext, unknown>, tag as OrderHandler<Ext, unknown>] } },
      evolve: (st, e) => {
        if (e.type !== 'Tagged') return base.evolve(st, e);
        const a = st.sides['A']!;
        return { ...st, sides: { ...st.sides, A: { ...a, secret: { ...a.secret, notes: { ...a.secret.notes, tag: 't' } } } } };
      },
    });
    const s = buildState(testScenario(), { phase: 'a-move', units: [] }) as GameState<Ext>;
    const p = sys.parse(s, 'A', { kind: 'orders', orders: [{ kind: 'note', text: 'x' }, { kind: 'tag' }] });
    if (!p.ok) throw new Error('refused');
    const events = sys.resolve(s, 'A', p.value, new ForcedDice([]));
    expect(events.map((e) => e.type)).toEqual(['Tagged', SECRETS_APPLIED, 'PhaseAdvanced']);
    expect(events.reduce((x, e) => sys.evolve(x, e), s).sides['A']!.secret.notes).toEqual({ tag: 't', text: 'x' });
  });

  it('may not be declared for an event that a later event of the run reads when folded: the engine refuses to log another game than it resolved', () => {
    // "copy" writes a public event whose fold reads the notes: folded after the records, it would copy nothing.
    const copy: OrderHandler<Ext, { kind: 'copy' }> = {
      kind: 'copy',
      schema: z.strictObject({ kind: z.literal('copy') }),
      validate: () => [],
      project: () => [],
      resolve: (ctx) => ctx.emit({ type: 'Copied', data: {}, visibility: { to: 'all' } }),
    };
    const base = system([note as OrderHandler<Ext, unknown>, copy as OrderHandler<Ext, unknown>]);
    const sys = defineSystem<Ext>({
      ...testSpec,
      records: ['Noted'],
      phases: { ...testSpec.phases, movement: { orders: [note as OrderHandler<Ext, unknown>, copy as OrderHandler<Ext, unknown>] } },
      evolve: (st, e) => (e.type === 'Copied' ? { ...st, ext: { ...st.ext, copy: st.sides['A']!.secret.notes['text'] ?? null } } : base.evolve(st, e)),
    });
    const s = buildState(testScenario(), { phase: 'a-move', units: [] }) as GameState<Ext>;
    const resolve = (given: JsonObject[]) => {
      const p = sys.parse(s, 'A', { kind: 'orders', orders: given });
      if (!p.ok) throw new Error('refused');
      return sys.resolve(s, 'A', p.value, new ForcedDice([]));
    };
    expect(() => resolve([{ kind: 'note', text: 'x' }, { kind: 'copy' }])).toThrow(/SystemSpec.records/);
    // Copied before any record reads the same either way.
    expect(resolve([{ kind: 'copy' }, { kind: 'note', text: 'x' }]).map((e) => e.type)).toEqual(['Copied', SECRETS_APPLIED, 'PhaseAdvanced']);
  });
});
