import { GameState, UnitState } from '../model/state';
import { UnitType } from '../model/scenario';
import { Board } from './board';
import { flag, mediumAt, strengthVs, typeOf, allUnits } from './queries';
import { ZOC_FORBIDDEN, ZOC_STOP } from './movement/step';

/**
 * Whether `enemy` exerts a zone of control on a unit of type `moverType` that
 * is in a hex of `medium`. The default follows rules.json: "can-attack" means
 * non-zero strength against the mover's target class there (GT-6C.2, Q-GT-21).
 * Systems may replace it (aircraft whose strength depends on markers).
 * `knownTo` is the side whose knowledge plans the move (null = the real
 * state), so that a fact hidden from the mover (a secretly broken-down unit,
 * GT-4.8) can be taken into account only where the mover may know it.
 */
export type ExertsZoc = (state: GameState, enemy: UnitState, moverType: UnitType, medium: string, knownTo?: string | null) => boolean;

export const defaultExertsZoc: ExertsZoc = (state, enemy, moverType, medium) => {
  const rule = state.scenario.rules.zoc;
  if (rule.exertedBy === 'none') return false;
  if (rule.noZocWhen.some((f) => flag(enemy, f))) return false;
  if (rule.exertedBy === 'any') return true;
  const cls = moverType.targetClassByMedium[medium] ?? moverType.targetClass;
  return strengthVs(typeOf(state, enemy), cls) > 0;
};

/**
 * Per-hex ZOC flags for one moving unit: ZOC_STOP where entering ends the
 * move, ZOC_FORBIDDEN where it may not go at all (GT-6C.3: the ZOC it started
 * in; or, with "no-zoc-to-zoc", any ZOC when it started in one).
 *
 * `knownTo`: plan from this side's knowledge. Hidden enemies are then either
 * ignored (the real move is cut short at resolution) or assumed to exert a ZOC,
 * as rules.json says, so that planning never depends on hidden facts.
 */
export function zocFlags(
  state: GameState,
  board: Board,
  mover: UnitState,
  start: number,
  knownTo: string | null,
  exerts: ExertsZoc = defaultExertsZoc,
  into?: Uint8Array,
  intoIsZero = false,
): Uint8Array {
  const rule = state.scenario.rules.zoc;
  if (into === undefined) into = new Uint8Array(board.grid.size);
  else if (!intoIsZero) into.fill(0);
  if (rule.exertedBy === 'none') return into;
  const moverType = typeOf(state, mover);
  const nb = board.grid.neighbours;
  const startZoc: number[] = [];
  for (const e of allUnits(state)) {
    if (e.side === mover.side || e.loc.at !== 'hex') continue;
    const hidden = knownTo !== null && e.hidden !== undefined && e.side !== knownTo;
    if (hidden && rule.hidden === 'ignored-until-contact') continue;
    const at = board.grid.indexOf(e.loc.hex);
    if (at < 0) continue;
    const onLand = hidden || exerts(state, e, moverType, 'land', knownTo);
    const onWater = hidden || exerts(state, e, moverType, 'water', knownTo);
    const other = hidden ? true : null;
    let touchesStart = false;
    for (let d = 0; d < 6; d++) {
      const n = nb[at * 6 + d]!;
      if (n < 0) continue;
      const m = mediumAt(board, n);
      const ex = m === 'land' ? onLand : m === 'water' ? onWater : (other ?? exerts(state, e, moverType, m, knownTo));
      if (!ex) continue;
      into[n]! |= ZOC_STOP;
      if (n === start) touchesStart = true;
    }
    if (touchesStart) startZoc.push(at);
  }
  if (startZoc.length === 0 || rule.leaving === 'free') return into;
  if (rule.leaving === 'no-zoc-to-zoc') {
    for (let i = 0; i < into.length; i++) if (into[i] !== 0) into[i]! |= ZOC_FORBIDDEN;
    return into;
  }
  for (const at of startZoc) {
    for (let d = 0; d < 6; d++) {
      const n = nb[at * 6 + d]!;
      if (n >= 0 && (into[n]! & ZOC_STOP) !== 0) into[n]! |= ZOC_FORBIDDEN;
    }
  }
  return into;
}
