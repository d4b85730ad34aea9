import { z } from 'zod';
import { Json, JsonObject } from '../model/json';
import { Scenario } from '../model/scenario';
import { GameState, Location, UnitState } from '../model/state';
import { initialState } from '../engine/initial-state';

const unitSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  side: z.string(),
  hex: z.string().optional(),
  carrier: z.string().optional(),
  towedBy: z.array(z.string()).optional(),
  box: z.string().optional(),
  eliminated: z.boolean().optional(),
  hidden: z.string().optional(),
  flags: z.record(z.string(), z.unknown()).optional(),
  attrs: z.record(z.string(), z.unknown()).optional(),
});

/** A compact description of a game state for rule cases: the phase, the units, standing orders. */
export const prestateSchema = z.strictObject({
  phase: z.string(),
  turn: z.int().min(0).default(1),
  units: z.array(unitSchema),
  standing: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  public: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** Side secrets a system keeps in notes (the Gators! breakdown result, loadouts), by side. */
  notes: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** Keys of the system's public state (ext) to set over its initial ext. */
  ext: z.record(z.string(), z.unknown()).default({}),
});
export type Prestate = z.input<typeof prestateSchema>;

/**
 * Builds a full state from a prestate: as if the game had reached that phase
 * with those units. `ext` is the system's initial public state (spec.initialExt).
 */
export function buildState(scenario: Scenario, input: Prestate, ext: JsonObject = {}): GameState<JsonObject> {
  const p = prestateSchema.parse(input);
  const base = initialState<JsonObject>(scenario, { ...ext, ...(p.ext as JsonObject) });
  const setupIndex = scenario.turns.setup.findIndex((x) => x.id === p.phase);
  const turnIndex = scenario.turns.phases.findIndex((x) => x.id === p.phase);
  if (setupIndex < 0 && turnIndex < 0) throw new Error(`prestate: no phase "${p.phase}"`);
  const def = setupIndex >= 0 ? scenario.turns.setup[setupIndex]! : scenario.turns.phases[turnIndex]!;
  const units: Record<string, UnitState> = {};
  for (const u of p.units) {
    if (scenario.units.types[u.type] === undefined) throw new Error(`prestate: unit ${u.id} has unknown type ${u.type}`);
    const loc: Location =
      u.hex !== undefined
        ? { at: 'hex', hex: u.hex }
        : u.carrier !== undefined
          ? { at: 'carried', by: u.carrier }
          : u.towedBy !== undefined
            ? { at: 'towed', by: u.towedBy }
            : u.eliminated === true
              ? { at: 'eliminated' }
              : { at: 'box', box: u.box ?? 'setup' };
    const unit: UnitState = { id: u.id, type: u.type, side: u.side, loc, flags: (u.flags ?? {}) as JsonObject, attrs: (u.attrs ?? {}) as JsonObject };
    units[u.id] = u.hidden === undefined ? unit : { ...unit, hidden: { marker: u.hidden } };
  }
  const sides = { ...base.sides };
  for (const [side, orders] of Object.entries(p.standing)) {
    const s = sides[side];
    if (s === undefined) throw new Error(`prestate: unknown side ${side}`);
    sides[side] = { ...s, secret: { ...s.secret, standing: orders as JsonObject } };
  }
  for (const [side, pub] of Object.entries(p.public)) {
    const s = sides[side];
    if (s !== undefined) sides[side] = { ...s, public: pub as { [k: string]: Json } };
  }
  for (const [side, notes] of Object.entries(p.notes)) {
    const s = sides[side];
    if (s === undefined) throw new Error(`prestate: unknown side ${side}`);
    sides[side] = { ...s, secret: { ...s.secret, notes: notes as JsonObject } };
  }
  return {
    ...base,
    units,
    sides,
    phase: {
      stage: setupIndex >= 0 ? 'setup' : 'turns',
      turn: setupIndex >= 0 ? 0 : p.turn,
      index: setupIndex >= 0 ? setupIndex : turnIndex,
      mode: def.mode,
      acting: def.mode === 'simultaneous' ? [...(def.sides ?? [])] : def.side ? [def.side] : [],
      submitted: [],
    },
  };
}
