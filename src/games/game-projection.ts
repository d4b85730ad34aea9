import type { Prisma } from '../database/generated/client';
import type { GameSystem } from '../rules/engine/types';
import type { GameEnvelope } from './game-envelope';

/** The games row (the listing read model) for a state at a version. */
export function projectGame(system: GameSystem, state: GameEnvelope, version: number): Omit<Prisma.GameUncheckedCreateInput, 'id'> {
  const phase = state.status === 'seating' ? null : system.phase(state.rules);
  return {
    scenarioId: state.scenarioId,
    scenarioVersion: state.scenarioVersion,
    system: state.systemId,
    title: state.title,
    createdBy: state.createdBy,
    status: state.status,
    version,
    turn: phase?.turn ?? 0,
    phase: phase?.phase ?? 'seating',
    mode: state.status === 'finished' ? 'ended' : (phase?.mode ?? 'seating'),
    acting: state.status === 'active' ? (phase?.acting ?? []) : [],
    deadlineAt: state.deadline?.at ? new Date(state.deadline.at) : null,
    options: state.options as unknown as Prisma.InputJsonValue,
    seedCommitment: state.seedCommitment,
    result: state.result ? (state.result as unknown as Prisma.InputJsonValue) : undefined,
  };
}
