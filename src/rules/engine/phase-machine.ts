import { PhaseDef, Scenario } from '../model/scenario';
import { GameState, PhaseState } from '../model/state';
import { KernelEventData } from './events';
import { PhaseInfo } from './types';

/**
 * The sequence of play as data (turns.json): the setup phases once, then the
 * turn's phases for each turn. The machine only says where the game is and
 * what comes next; what a phase does is the system's business.
 */
export function phaseDefAt(s: Scenario, stage: PhaseState['stage'], index: number): PhaseDef | undefined {
  if (stage === 'setup') return s.turns.setup[index];
  if (stage === 'turns') return s.turns.phases[index];
  return undefined;
}

export function currentPhase(state: GameState): PhaseDef | undefined {
  return phaseDefAt(state.scenario, state.phase.stage, state.phase.index);
}

export type NextPhase =
  | { readonly kind: 'phase'; readonly data: KernelEventData['PhaseAdvanced'] }
  /** The last phase of a turn is over; the caller checks victory, then asks again with turnOver = true. */
  | { readonly kind: 'turn-end'; readonly turn: number; readonly last: boolean };

/** What follows the current phase. */
export function nextPhase(s: Scenario, p: PhaseState, turnOver = false): NextPhase {
  if (p.stage === 'setup' && p.index + 1 < s.turns.setup.length) return enter(s, 'setup', 0, p.index + 1);
  if (p.stage === 'setup') return enter(s, 'turns', 1, 0);
  if (p.index + 1 < s.turns.phases.length) return enter(s, 'turns', p.turn, p.index + 1);
  if (!turnOver) return { kind: 'turn-end', turn: p.turn, last: p.turn >= s.turns.turns };
  return enter(s, 'turns', p.turn + 1, 0);
}

function enter(s: Scenario, stage: 'setup' | 'turns', turn: number, index: number): NextPhase {
  const def = phaseDefAt(s, stage, index)!;
  const acting = def.auto ? [] : def.mode === 'simultaneous' ? [...(def.sides ?? [])] : [def.side!];
  return { kind: 'phase', data: { stage, turn, index, phase: def.id, mode: def.auto ? 'sequential' : def.mode, acting } };
}

/** Time of day of a turn from the turn track's cyclic pattern, or null. */
export function timeOfDay(s: Scenario, turn: number): string | null {
  const p = s.turns.timeOfDay;
  return p.length === 0 || turn < 1 ? null : p[(turn - 1) % p.length]!;
}

/** The contract's PhaseInfo. The reaction prompt is the public one (PhaseInfo may reach every side). */
export function phaseInfo(state: GameState): PhaseInfo {
  const p = state.phase;
  const def = currentPhase(state);
  const info: PhaseInfo = { turn: p.turn, phase: def?.id ?? (p.stage === 'ended' ? 'ended' : 'start'), mode: p.mode, acting: [...p.acting] };
  const r = state.pending?.request;
  if (p.mode === 'reaction' && r) info.reaction = { side: r.side, kind: r.kind, prompt: r.prompt };
  if (p.result !== undefined) info.result = { winner: p.result.winner, reason: p.result.reason };
  return info;
}
