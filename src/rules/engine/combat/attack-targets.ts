import { GameState } from '../../model/state';
import { boardOf } from '../board';
import { allUnits, typeOf } from '../queries';
import { SideId, UnitOptions } from '../types';
import { concealedFrom } from '../visibility';
import { firingStand, pickDefender, plannedClass, strengthOf, table, validateAttack } from './attack-checks';
import { attackEffects } from './effects';
import { columnFor, odds } from './odds';
import type { AttackOrder, OddsHooks } from './odds-step';

/** Targets for options(): enemy stacks within range, with an odds preview from what the side can see. */
export function attackTargets(state: GameState, side: SideId, unitId: string, hooks: OddsHooks): UnitOptions['attacks'] {
  const u = state.units[unitId];
  const stand = u === undefined ? undefined : firingStand(state, hooks, u);
  if (u === undefined || stand === undefined || stand.loc.at !== 'hex') return [];
  const board = boardOf(state.scenario);
  const at = board.grid.indexOf(stand.loc.hex);
  const t = table(state);
  const hexes = new Set<string>();
  for (const e of allUnits(state)) if (e.side !== side && e.loc.at === 'hex') hexes.add(e.loc.hex);
  const out: UnitOptions['attacks'] = [];
  for (const hex of [...hexes].sort()) {
    const o: AttackOrder = { kind: 'attack', attackers: [{ unit: unitId }], target: hex };
    if (validateAttack(state, side, o, 0, hooks).length > 0) continue;
    const d = pickDefender(state, hex, side, hooks, side)!;
    const visible = allUnits(state).filter((x) => x.side !== side && x.loc.at === 'hex' && x.loc.hex === hex && concealedFrom(state, x).length === 0);
    const target = board.grid.indexOf(hex);
    const cls = plannedClass(state, hooks, d, target, side);
    // Under a "?", or of a class the owner's secret decides: no odds to promise.
    if (cls === null) {
      out.push({ targetHex: hex, targetIds: visible.map((x) => x.id), preview: { concealed: true } });
      continue;
    }
    const strength = strengthOf(state, hooks, u, cls);
    const attackers = [{ unit: u, hex: at, strength }];
    const effects = attackEffects(state, attackers, { unit: d, hex: target }, cls);
    // The system's shifts and modifiers too (GT-7H.1's two columns), as far as the side may know them.
    const extra = hooks.modifiers?.(state, { attackers, defender: { unit: d, hex: target }, targetHex: hex, targetClass: cls }, side) ?? { shifts: [], dieModifiers: [] };
    const shift = effects.reduce((s, e) => s + (e.kind === 'column-shift' ? e.shift : 0), 0) + extra.shifts.reduce((s, m) => s + m.value, 0);
    const adv = odds(strength, typeOf(state, d).defense);
    const col = Math.max(0, Math.min(t.columns.length - 1, columnFor(t, adv) + shift));
    out.push({
      targetHex: hex,
      targetIds: visible.map((x) => x.id),
      preview: {
        defender: d.id,
        strength,
        defense: typeOf(state, d).defense,
        odds: Number.isFinite(adv) ? adv : 'inf',
        column: t.columns[col]!.label,
        dieModifiers: [...effects.filter((e) => e.kind === 'die-modifier').map((e) => e.ruleId), ...extra.dieModifiers.map((m) => m.ruleId)],
        preRolls: effects.filter((e) => e.kind === 'pre-roll').map((e) => e.ruleId),
      },
    });
  }
  return out;
}
