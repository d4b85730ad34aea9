import { canonical } from '../common/canonical-json';
import type { StoredEvent } from '../event-store/event-store.types';
import type { GameSystem, PhaseInfo, Viewer } from '../rules/engine/types';
import type { GameEnvelope } from './game-envelope';
import { eventsFor, VisibleEvent } from './game-events';

/** What a command returns to its caller: the new events and the game as the caller may see them. */
export interface Outcome {
  gameId: string;
  fromVersion: number;
  version: number;
  events: VisibleEvent[];
  phase: PublicPhase;
}

export interface PublicPhase {
  status: GameEnvelope['status'];
  turn: number;
  phase: string;
  mode: PhaseInfo['mode'] | 'seating';
  acting: string[];
  deadlineAt: string | null;
  /**
   * The reaction being asked: the side, the kind and the public prompt, for every reader, as
   * each reads them in the history's ReactionRequested (the asked side's choices are in its view).
   */
  reaction: unknown;
  result: GameEnvelope['result'];
}

export function publicPhase(system: GameSystem, state: GameEnvelope): PublicPhase {
  const p = state.status === 'seating' ? null : system.phase(state.rules);
  // A game that ended with a window open (a resignation) asks nothing more of anyone.
  const asked = state.status === 'active' ? p?.reaction : undefined;
  return {
    status: state.status,
    turn: p?.turn ?? 0,
    // Ended by the rules or by a resignation or forfeit mid-phase, a finished game reads the same.
    phase: state.status === 'finished' ? 'ended' : (p?.phase ?? 'seating'),
    mode: state.status === 'finished' ? 'ended' : (p?.mode ?? 'seating'),
    acting: state.status === 'active' ? (p?.acting ?? []) : [],
    deadlineAt: state.deadline?.at ?? null,
    reaction: asked ? canonical({ side: asked.side, kind: asked.kind, prompt: asked.prompt }) : null,
    result: state.result ? canonical(state.result) : null,
  };
}

/**
 * Built only from the stored events and the state right after them, so the first answer and
 * any replay of the same idempotency key are byte-identical.
 */
export function outcomeFor(system: GameSystem, state: GameEnvelope, events: StoredEvent[], viewer: Viewer, fromVersion: number, version: number): Outcome {
  return { gameId: state.id, fromVersion, version, events: eventsFor(events, viewer), phase: publicPhase(system, state) };
}
