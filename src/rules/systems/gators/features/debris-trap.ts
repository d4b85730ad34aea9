import { UnitState } from '../../../model/state';
import { table } from '../../../engine/combat/attack-checks';
import { eliminate, retreatOrEliminate, stackAt } from '../../../engine/combat/apply';
import { readTable } from '../../../engine/combat/odds';
import { RetreatAsk, askDefender, finishRetreat, isChoiceStage, retreatByOwner } from '../../../engine/combat/owner-choice';
import { RetreatBlocked } from '../../../engine/combat/retreat';
import { ResolveContext, Resume } from '../../../engine/kit/types';
import { typeOf } from '../../../engine/queries';
import { gatorsData } from '../data';
import { groundData } from '../ground-data';
import { hasDebris, publicOf, tagged } from '../queries';
import { trapsCleared } from './debris-state';

/**
 * GT-6Q.5, Q-GT-32: the landing side's infantry entering a Debris hex whose
 * traps are not cleared may be caught. The engine rolls once for the units
 * that entered together; on 1–2 the booby trap attacks on the fixed column 2
 * the one of them with the highest defense (as a stack defends, GT-7N.1). No
 * terrain, no modifiers, no attacker to harm. A retreat moves the whole stack
 * standing there. Engineers and SEALs are not caught (GT-6Q.6). The unit's
 * move ends in the hex: every infantry unit of this scenario has speed 1, so
 * a move that enters a hex also ends there. With `ownerChoices` (a caller that
 * can stop and go on later) its owner, when its standing orders say "ask", names
 * the counter caught among those of equal defense (Q-GT-44), before any die, and
 * steers a retreat (Q-GT-35), as after any attack; the move is over by then.
 * `chosen`: the counter named, on resume; `blocked`: the hexes closed to a retreat (OddsHooks.retreatBlocked).
 */
export function springTrap(ctx: ResolveContext, unitIds: readonly string[], hex: string, opts: { ownerChoices?: boolean; chosen?: string; blocked?: RetreatBlocked | undefined } = {}): void {
  const state = ctx.state;
  const d = groundData(state.scenario).debris.trap;
  if (!hasDebris(state, hex) || trapsCleared(state, hex)) return;
  const victims = unitIds
    .map((id) => state.units[id])
    .filter((u): u is UnitState => u !== undefined && u.loc.at === 'hex' && u.loc.hex === hex)
    .filter((u) => u.side === gatorsData(state.scenario).options.landingSide && tagged(state, u, ...d.victimTags) && !tagged(state, u, ...d.immuneTags));
  if (victims.length === 0) return;
  const best = Math.max(...victims.map((u) => typeOf(state, u).defense));
  const tied = victims.filter((u) => typeOf(state, u).defense === best);
  let target = tied.find((u) => u.id === opts.chosen) ?? tied[0]!;
  if (opts.chosen === undefined && opts.ownerChoices === true) {
    // Q-GT-44 before any die: asking after the trap's own roll would split one roll's event in two.
    const asked = askDefender(ctx, hex, tied, stackAt(state, hex, target.side), { hex, cause: 'booby-trap' });
    if (asked === 'suspended') return;
    target = asked ?? target;
  }
  const t = table(state);
  const roll = ctx.dice.roll(t.die, `booby trap in ${hex} (GT-6Q.5)`);
  if (!d.rolls.includes(roll)) return ctx.emit(publicOf('BoobyTrapRolled', { hex, units: victims.map((u) => u.id), roll, sprung: false }));
  const column = t.columns.findIndex((c) => c.label === d.column);
  if (column < 0) throw new Error(`rules.json combat.debris.trap.column "${d.column}" is not a column of the combat table`);
  const attackRoll = ctx.dice.roll(t.die, `booby trap attack in ${hex} (GT-6Q.5)`);
  const result = readTable(t, column, 0, attackRoll).result;
  ctx.emit(publicOf('BoobyTrapRolled', { hex, units: victims.map((u) => u.id), roll, sprung: true, defender: target.id, column: d.column, attackRoll, result }));
  const spec = t.results[result];
  // Attacker results are ignored: there is no attacker (Q-GT-32).
  if (spec?.side !== 'defender') return;
  if (spec.effect === 'eliminate') eliminate(ctx, ctx.state.units[target.id]!, `booby trap in ${hex}`);
  if (spec.effect !== 'retreat') return;
  const r: RetreatAsk = { target: hex, side: target.side, hexes: spec.hexes ?? 1, awayFrom: [], mayEnterEnemyZoc: t.retreat?.mayEnterEnemyZoc ?? true, cause: `booby trap in ${hex}` };
  if (opts.ownerChoices === true) retreatByOwner(ctx, r, undefined, opts.blocked);
  else retreatOrEliminate(ctx, stackAt(ctx.state, hex, target.side), r.hexes, [], r.mayEnterEnemyZoc, r.cause, opts.blocked);
}

/**
 * A booby trap goes on after its owner answered: the counter it attacks (Q-GT-44), asked before
 * its die, or the path of the retreat it caused (Q-GT-35). The move, unload or split was over by then.
 */
export function resumeTrap(ctx: ResolveContext, resume: Resume, unitIds: readonly string[], hex: string, blocked?: RetreatBlocked): void {
  if (!isChoiceStage(resume.stage)) return;
  if (resume.stage.choice === 'retreat') return finishRetreat(ctx, resume.stage, resume.answer, blocked);
  springTrap(ctx, unitIds, hex, { ownerChoices: true, chosen: String((resume.answer as { unit?: unknown }).unit ?? ''), blocked });
}
