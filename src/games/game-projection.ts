import type { GameSystem } from '../rules/engine/types';
import type { GameEnvelope } from './game-envelope';
import { publicPhase } from './outcome';

/** A `games` row (the listing read model), by column. */
export interface GameRow {
  id: string;
  scenario_id: string;
  scenario_version: string;
  system: string;
  title: string;
  created_by: string;
  status: string;
  version: number;
  turn: number;
  phase: string;
  mode: string;
  acting: string[];
  undo_by: string | null;
  deadline_at: string | null;
  options: unknown;
  seed_commitment: string;
  result: unknown;
}

/** The games row for a state at a version: the phase as anyone may read it (publicPhase). */
export function projectGame(system: GameSystem, state: GameEnvelope, version: number): GameRow {
  const p = publicPhase(system, state);
  return {
    id: state.id,
    scenario_id: state.scenarioId,
    scenario_version: state.scenarioVersion,
    system: state.systemId,
    title: state.title,
    created_by: state.createdBy,
    status: state.status,
    version,
    turn: p.turn,
    phase: p.phase,
    mode: p.mode,
    acting: [...p.acting],
    undo_by: state.status === 'active' ? (state.pendingUndo?.proposedBy ?? null) : null,
    deadline_at: p.deadlineAt,
    options: state.options,
    seed_commitment: state.seedCommitment,
    result: state.result ?? null,
  };
}
