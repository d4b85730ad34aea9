import type { StoredEvent } from '../event-store/event-store.types';
import type { NotificationIntent, NotificationKind } from '../notifications/notification-intent';
import type { GameSystem } from '../rules/engine/types';
import { describeAnswer, describeLines, humanPhase } from './describe-event';
import { AppEvent, GameEnvelope } from './game-envelope';
import { eventsFor, VisibleEvent } from './game-events';
import { gameScenario } from './scenario-facts';

// A resignation also ends the game: its opponent hears the more telling of the two.
const priority: NotificationKind[] = [
  'opponent_resigned',
  'game_ended',
  'deadline_missed',
  'undo_proposed',
  'undo_answered',
  'game_started',
  'reaction_requested',
  'your_turn',
  'deadline_reminder',
];

export interface PlanInput {
  system: GameSystem;
  after: GameEnvelope;
  version: number;
  events: StoredEvent[];
  playerNames: Record<string, string>;
  publicUrl: string;
}

/**
 * Who must hear about a commit, and what. At most one notification per player per commit (the
 * most important reason wins). Every word of the content comes from the recipient side's view:
 * its own reading of the events and the public state of the game.
 */
export function planNotifications(input: PlanInput): NotificationIntent[] {
  const { after, events, system } = input;
  const kinds = new Map<string, Set<NotificationKind>>();
  const add = (side: string, kind: NotificationKind) => {
    const player = after.seats[side];
    if (!player) return;
    const set = kinds.get(side) ?? new Set<NotificationKind>();
    set.add(kind);
    kinds.set(side, set);
  };
  const sides = Object.keys(after.seats);
  const phase = after.status === 'active' ? system.phase(after.rules) : null;
  // A notice of the end names the turn the game ended in, not 0.
  const turn = phase?.turn ?? (after.status === 'finished' && after.rules !== undefined ? system.phase(after.rules).turn : 0);
  const missedBy = new Set<string>();
  let windowClosed = false;
  let lapsedFor: string | null = null;
  for (const e of events) {
    if ((e.meta as { source?: string }).source !== 'app') continue;
    const d = (e.data ?? {}) as Record<string, unknown>;
    switch (e.type) {
      case AppEvent.GameBegan:
        sides.forEach((s) => add(s, 'game_started'));
        break;
      case AppEvent.DeadlineSet:
        // A clock paused or restarted for a vacation is no new turn: each player hears of a turn once.
        if (d['retimed']) break;
        if (phase && Array.isArray(d['sides'])) (d['sides'] as string[]).forEach((s) => add(s, phase.mode === 'reaction' ? 'reaction_requested' : 'your_turn'));
        break;
      case AppEvent.UndoProposed:
        sides.filter((s) => s !== d['side']).forEach((s) => add(s, 'undo_proposed'));
        break;
      // The proposer hears the answer: a decline changes nothing else, so nothing else would tell it.
      case AppEvent.UndoAccepted:
      case AppEvent.UndoDeclined:
        sides.filter((s) => s !== d['side']).forEach((s) => add(s, 'undo_answered'));
        break;
      // The proposer waits for an answer: it hears that the other side went on without one (or a
      // pass was made). Going on itself, it knows; the end of the game tells its own news.
      case AppEvent.UndoLapsed:
        if (after.status !== 'finished' && (d['by'] !== d['side'] || d['auto'])) {
          lapsedFor = d['side'] as string;
          add(lapsedFor, 'undo_answered');
        }
        break;
      case AppEvent.DeadlineReminded:
        add(d['side'] as string, 'deadline_reminder');
        break;
      case AppEvent.DeadlineMissed:
        missedBy.add(d['side'] as string);
        if (d['window'] === 'reaction') windowClosed = true;
        sides.forEach((s) => add(s, 'deadline_missed'));
        break;
      case AppEvent.Resigned:
        sides.filter((s) => s !== d['side']).forEach((s) => add(s, 'opponent_resigned'));
        break;
      case AppEvent.GameEnded:
        sides.forEach((s) => add(s, 'game_ended'));
        break;
      default:
        break;
    }
  }
  // The side whose turn another side's miss began hears "your turn"; the side that missed, of its miss.
  for (const [side, set] of kinds) if (!missedBy.has(side) && (set.has('your_turn') || set.has('reaction_requested'))) set.delete('deadline_missed');
  // The rules' GameEnded and the game's own, which finishes it, tell the same end: it is told once.
  const ruledEnd = events.some((e) => (e.meta as { source?: string }).source === 'rules' && e.type === AppEvent.GameEnded);
  const told = ruledEnd ? events.filter((e) => !((e.meta as { source?: string }).source === 'app' && e.type === AppEvent.GameEnded)) : events;
  const scenario = gameScenario(system, after);
  const sideName = (s: string) => scenario?.sides.find((x) => x.id === s)?.name ?? s;
  const intents: NotificationIntent[] = [];
  for (const [side, set] of kinds) {
    const kind = priority.find((k) => set.has(k))!;
    const playerId = after.seats[side]!;
    const seen = eventsFor(told, { kind: 'side', side });
    const missed = { sides: [...missedBy].map(sideName), you: missedBy.has(side) };
    intents.push({
      id: `${after.id}:${input.version}:${kind}:${playerId}`,
      kind,
      gameId: after.id,
      playerId,
      side,
      gameVersion: input.version,
      content: {
        gameTitle: after.title,
        scenarioName: scenario?.name ?? after.scenarioId,
        turn,
        phase: humanPhase(phase?.phase ?? (after.status === 'finished' ? 'game over' : 'seating')),
        whoseTurn: (phase?.acting ?? []).map((s) => ({
          side: s,
          sideName: sideName(s),
          playerName: after.seats[s] ? (input.playerNames[after.seats[s]!] ?? null) : null,
        })),
        yourTurn: phase?.acting.includes(side) ?? false,
        deadlineAt: after.deadline?.at ?? null,
        ...(after.deadline && after.deadline.at === null && after.deadline.remainingMs !== null ? { deadlinePaused: true as const } : {}),
        // Deadlines set and reminded are in the notice's own lines; a miss is news of the change.
        happened: seen.filter((e) => !e.type.startsWith('Deadline') || e.type === AppEvent.DeadlineMissed).flatMap(describeLines),
        ...(kind === 'deadline_missed' ? { missed: windowClosed ? { ...missed, window: 'reaction' as const, ...(missed.you ? ownExpiredAnswer(seen, side) : {}) } : missed } : {}),
        ...(kind === 'undo_answered' ? { undoAccepted: events.some((e) => e.type === AppEvent.UndoAccepted), ...(side === lapsedFor ? { undoLapsed: true } : {}) } : {}),
        links: { game: `${input.publicUrl}/api/v1/games/${after.id}`, act: `${input.publicUrl}/api/v1/games/${after.id}/view` },
        ...(after.result ? { result: after.result } : {}),
      },
    });
  }
  return intents;
}

/**
 * What answered the side's own reaction window when it expired: its standing orders or none of
 * them. Read from the side's own view of the log, where only its side finds `applied` (the
 * others read the answer redacted), so it cannot reach another side's notice.
 */
function ownExpiredAnswer(seen: readonly VisibleEvent[], side: string): { applied?: 'standing-orders' | 'none'; answer?: string } {
  for (let i = seen.length - 1; i >= 0; i--) {
    const e = seen[i]!;
    const d = (e.data ?? {}) as { side?: unknown; by?: unknown; applied?: unknown; answer?: unknown };
    if (e.type !== 'ReactionAnswered' || d.side !== side || d.by !== 'expiry') continue;
    return d.applied === 'standing-orders' || d.applied === 'none' ? { applied: d.applied, answer: describeAnswer(d.answer) } : {};
  }
  return {};
}
