import { z } from 'zod';
import { JsonObject } from '../../../model/json';
import { GameState } from '../../../model/state';
import { unitIdSchema, isViolation, ownUnit } from '../../../engine/orders/common';
import { OrderHandler } from '../../../engine/kit/types';
import { violation } from '../../../engine/violation';
import { Violation } from '../../../engine/types';
import { gatorsData, LoadoutData } from '../data';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState, notesOf } from '../ext';
import { privateTo, tagged } from '../queries';


export const armSchema = z.strictObject({ kind: z.literal('arm'), unit: unitIdSchema, markers: z.array(z.string().min(1)).max(8) });
export type ArmOrder = z.infer<typeof armSchema>;

/**
 * Why `markers` is not a legal load for this loadout (GT-9.4, Q-GT-48: a
 * loadout is a maximum; "in pairs": every type in even numbers), or null.
 * Each marker must fit a slot of its own: a small matching, slots are few.
 */
export function loadoutProblem(loadout: LoadoutData | undefined, markers: readonly string[]): string | null {
  if (loadout === undefined) return 'this unit carries no Air-Attack markers';
  if (markers.length > loadout.slots.length) return `at most ${loadout.slots.length} markers`;
  if (loadout.inPairs) {
    const counts = new Map<string, number>();
    for (const m of markers) counts.set(m, (counts.get(m) ?? 0) + 1);
    const odd = [...counts].find(([, n]) => n % 2 !== 0);
    if (odd !== undefined) return `markers are carried in pairs (${odd[1]} × ${odd[0]})`;
  }
  const used = loadout.slots.map(() => false);
  const fit = (k: number): boolean => {
    if (k === markers.length) return true;
    for (let s = 0; s < loadout.slots.length; s++) {
      if (used[s] || !loadout.slots[s]!.includes(markers[k]!)) continue;
      used[s] = true;
      if (fit(k + 1)) return true;
      used[s] = false;
    }
    return false;
  };
  return fit(0) ? null : `${markers.join(', ')} does not fit the loadout ${loadout.slots.map((s) => s.join('/')).join(' + ')}`;
}

/**
 * Every load a loadout allows, largest first: each multiset of its markers that loadoutProblem
 * accepts, none included (a loadout is a maximum, Q-GT-48). A few slots of a few marker types
 * (at most 8 slots, schema) keep the list short: 10 for the AH-1W's four pairs of three types.
 */
export function loadsOf(loadout: LoadoutData): string[][] {
  const kinds = [...new Set(loadout.slots.flat())];
  const out: string[][] = [];
  const grow = (from: number, acc: string[]) => {
    if (loadoutProblem(loadout, acc) === null) out.push(acc);
    if (acc.length < loadout.slots.length) for (let k = from; k < kinds.length; k++) grow(k, [...acc, kinds[k]!]);
  };
  grow(0, []);
  return out.sort((a, b) => b.length - a.length);
}

/** The loadout data of a unit's type (rules.json combat.airAttack.loadouts). */
export function loadoutFor(state: GameState, unitType: string): LoadoutData | undefined {
  return gatorsData(state.scenario).airAttack.loadouts[unitType];
}

function checkArm(state: GameState, side: string, o: ArmOrder, i: number): Violation[] {
  const u = ownUnit(state, side, o.unit, i);
  if (isViolation(u)) return [u];
  const known = gatorsData(state.scenario).airAttack.markers;
  const unknown = o.markers.find((m) => known[m] === undefined);
  if (unknown !== undefined) return [violation('GT-9.4', 'loadout/unknown_marker', `"${unknown}" is not an Air-Attack marker`, i)];
  const p = loadoutProblem(loadoutFor(state, u.type), o.markers);
  return p === null ? [] : [violation('GT-9.4', 'loadout/illegal', `${o.unit}: ${p}`, i)];
}

/**
 * Arming at setup (GT-4.4 airborne F-5As, GT-4.11 attack helicopters on the
 * LPD/LSD; any aircraft may start armed). Re-arming in play is part of the
 * air feature (GT-6B.4), which reuses this order behind its own check.
 */
export function armOrder(): OrderHandler<GatorsExt, ArmOrder> {
  return {
    kind: 'arm',
    schema: armSchema,
    validate: checkArm,
    // Every load of the aircraft's loadout that checkArm accepts; options() keeps those the whole
    // validation accepts too (optionOrder), such as the re-arming check in play (air-ops.ts).
    options: (state, side, unitId) => {
      const u = state.units[unitId];
      const lo = u === undefined ? undefined : loadoutFor(state, u.type);
      if (lo === undefined) return {};
      const ok = (markers: string[]) => {
        const o: ArmOrder = { kind: 'arm', unit: unitId, markers };
        return checkArm(state, side, o, 0).length === 0;
      };
      const other = loadsOf(lo)
        .filter(ok)
        .map((markers) => ({ action: 'arm', detail: { markers } }));
      return other.length > 0 ? { other } : {};
    },
    optionOrder: (unit, x) => (x.action === 'arm' ? { kind: 'arm', unit, markers: (x.detail as { markers: string[] }).markers } : null),
    project: (_s, side, o) => [{ type: 'AircraftArmed', data: { side, unit: o.unit, markers: o.markers } }],
    resolve: (ctx, o) => ctx.emit(privateTo(ctx.side, 'AircraftArmed', { side: ctx.side, unit: o.unit, markers: o.markers })),
  };
}

/** Evolve of AircraftArmed: the loadout goes into the owner's notes (hidden from the enemy, GT-6C.2). */
function armed(state: GState, data: unknown): GState {
  const d = data as { side: string; unit: string; markers: string[] };
  const s = state.sides[d.side]!;
  const loadouts = { ...(notesOf(state, d.side).loadouts ?? {}), [d.unit]: d.markers };
  return { ...state, sides: { ...state.sides, [d.side]: { ...s, secret: { ...s.secret, notes: { ...s.secret.notes, loadouts } as JsonObject } } } };
}

export const loadouts: GatorsFeature = {
  id: 'loadouts',
  rules: ['GT-9.4', 'Q-GT-48', 'GT-4.11', 'Q-GT-21'],
  phases: { setup: { orders: () => [armOrder()] } },
  events: { AircraftArmed: (s, e) => armed(s, e.data) },
  // Re-armed in play, it is logged at the end of the run (own-records.ts): no event a launch,
  // recovery, movement or guerrillas phase writes reads loadouts when folded; those that do
  // (AirAttackMarkersUsed, MarkerJettisoned) come only from the attacks of a combat phase.
  records: ['AircraftArmed'],
  move: {
    // Q-GT-21: an aircraft whose type may carry a marker against the mover's class exerts a ZOC on it, whatever it carries.
    zocCapable: (state, enemy, moverType, medium) => {
      const lo = loadoutFor(state, enemy.type);
      if (lo === undefined || !tagged(state, enemy, 'aircraft')) return false;
      const cls = moverType.targetClassByMedium[medium] ?? moverType.targetClass;
      const markers = gatorsData(state.scenario).airAttack.markers;
      return lo.slots.some((slot) => slot.some((m) => markers[m]?.targetClass === cls && markers[m]?.targetTags === undefined));
    },
  },
};
