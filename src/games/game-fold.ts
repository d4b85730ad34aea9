import type { GameSystem, SideId } from '../rules/engine/types';
import { AppEvent, GameEnvelope } from './game-envelope';

/** The part of a stored event the fold reads. */
export interface FoldableEvent {
  type: string;
  data: unknown;
  version: number;
  meta: { source?: string; time?: string; reveals?: boolean };
}

/** What a new game starts from: its fixed facts, and the sides whose seats are to be filled. */
export type GameCreatedData = Pick<GameEnvelope, 'id' | 'scenarioId' | 'scenarioVersion' | 'systemId' | 'title' | 'createdBy' | 'options' | 'seedCommitment'> & {
  sides: SideId[];
};

type Data = Record<string, unknown>;

/**
 * The only state transition of a game envelope. Rules events go to the system's evolve;
 * application events change the envelope. Undo restores the rules state saved with the
 * undone submission, so the log stays append-only.
 */
export function foldGame(system: GameSystem, state: GameEnvelope | undefined, event: FoldableEvent): GameEnvelope {
  if (event.meta.source === 'rules') {
    if (!state) throw new Error(`rules event ${event.type} before GameCreated`);
    const rules = system.evolve(state.rules, { type: event.type, data: event.data });
    // A phase that revealed something hidden cannot be taken back. A reaction it asked for is such
    // a thing: answered at once, it showed that the other side's standing orders covered it;
    // pausing, that they did not.
    const reveals = event.meta.reveals || event.type === 'ReactionRequested' || event.type === 'ReactionAnswered';
    const last = reveals && state.lastSubmission ? { ...state.lastSubmission, undoable: false } : state.lastSubmission;
    return { ...state, rules, lastSubmission: last };
  }
  return foldAppEvent(state, event);
}

/**
 * An application event's change of the envelope. It needs no game system, so who may see a game
 * (its seats and options) is known even while the server lacks the system that plays it.
 */
export function foldAppEvent(state: GameEnvelope | undefined, event: FoldableEvent): GameEnvelope {
  const d = (event.data ?? {}) as Data;
  if (event.type === AppEvent.GameCreated) return created(d as unknown as GameCreatedData);
  if (!state) throw new Error(`${event.type} before GameCreated`);
  const time = event.meta.time ?? null;
  switch (event.type) {
    case AppEvent.SeatClaimed:
      return { ...state, seats: { ...state.seats, [d['side'] as string]: d['playerId'] as string } };
    case AppEvent.GameBegan:
      return { ...state, status: 'active' };
    case AppEvent.PhaseSubmitted: {
      const side = d['side'] as string;
      // Acting (orders or a reaction) resets the side's count of deadlines missed in a row;
      // a pass the scheduler made does not, nor did standing orders (which older games' logs
      // still hold as submissions: they are now kept beside the log, StandingOrdersStore).
      const acted = !d['auto'] && d['kind'] !== 'standing-orders';
      const missed = acted ? { ...state.missed, [side]: 0 } : state.missed;
      // Only a player's own orders can be taken back, and only until anything else is
      // submitted: a later reaction or pass changes what the undo would erase.
      if (d['kind'] !== 'orders' || d['auto']) return { ...state, missed, pendingUndo: null, lastSubmission: null };
      return {
        ...state,
        missed,
        pendingUndo: null,
        lastSubmission: { side, fromVersion: event.version, toVersion: event.version, rules: state.rules, diceCounter: state.diceCounter, undoable: true, missed: state.missed[side] ?? 0 },
      };
    }
    case AppEvent.DiceRolled: {
      const last = state.lastSubmission ? { ...state.lastSubmission, undoable: false } : null;
      return { ...state, diceCounter: Math.max(state.diceCounter, d['n'] as number), lastSubmission: last };
    }
    case AppEvent.DeadlineSet: {
      // A vacation's pause or restart is the same deadline: a reminder already queued for it is
      // still about it, and must be withdrawn when a later deadline or the end replaces it.
      const reminded = d['retimed'] ? (state.deadline?.reminded ?? false) : false;
      return {
        ...state,
        deadline: d['sides']
          ? { id: event.version, sides: d['sides'] as string[], at: (d['at'] as string | null) ?? null, remainingMs: (d['remainingMs'] as number | null) ?? null, reminded, retimed: d['retimed'] === true }
          : null,
      };
    }
    case AppEvent.DeadlineReminded:
      return state.deadline ? { ...state, deadline: { ...state.deadline, reminded: true } } : state;
    case AppEvent.DeadlineMissed: {
      // A reaction window that expired is answered for the side; it is no phase missed.
      if (d['window'] === 'reaction') return state;
      const side = d['side'] as string;
      return { ...state, missed: { ...state.missed, [side]: (state.missed[side] ?? 0) + 1 } };
    }
    case AppEvent.VacationStarted: {
      const side = d['side'] as string;
      return { ...state, vacation: { ...state.vacation, [side]: { usedMs: state.vacation[side]?.usedMs ?? 0, since: time } } };
    }
    case AppEvent.VacationEnded: {
      const side = d['side'] as string;
      return { ...state, vacation: { ...state.vacation, [side]: { usedMs: d['usedMs'] as number, since: null } } };
    }
    case AppEvent.UndoProposed:
      return { ...state, pendingUndo: { proposedBy: d['side'] as string, version: event.version } };
    case AppEvent.UndoDeclined:
      return { ...state, pendingUndo: null, lastSubmission: state.lastSubmission ? { ...state.lastSubmission, declined: true } : null };
    case AppEvent.UndoAccepted: {
      const point = state.lastSubmission;
      if (!point) return { ...state, pendingUndo: null };
      // The game as it was before the phase, its run of misses included: else orders taken back would still end it.
      const missed = point.missed === undefined ? state.missed : { ...state.missed, [point.side]: point.missed };
      return { ...state, rules: point.rules, diceCounter: point.diceCounter, missed, lastSubmission: null, pendingUndo: null };
    }
    case AppEvent.Resigned:
      return state;
    case AppEvent.GameEnded:
      return { ...state, status: 'finished', deadline: null, pendingUndo: null, result: { winner: (d['winner'] as string | null) ?? null, reason: d['reason'] as string } };
    case AppEvent.SeedRevealed:
      return { ...state, seed: d['seed'] as string };
    default:
      return state;
  }
}

function created(d: GameCreatedData): GameEnvelope {
  const perSide = <T>(v: () => T) => Object.fromEntries(d.sides.map((s) => [s, v()])) as Record<string, T>;
  const { sides: _sides, ...fixed } = d;
  void _sides;
  return {
    ...fixed,
    seats: perSide(() => null),
    status: 'seating',
    rules: undefined,
    diceCounter: 0,
    deadline: null,
    missed: perSide(() => 0),
    vacation: perSide(() => ({ usedMs: 0, since: null })),
    lastSubmission: null,
    pendingUndo: null,
    result: null,
    seed: null,
  };
}
