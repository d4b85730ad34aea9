import type { VisibleEvent } from '../../games/game-events';
import type { PublicPhase } from '../../games/outcome';
import type { Outcome as DomainOutcome } from '../../games/outcome';
import type { GameSummary, HistoryPhase as DomainHistoryPhase } from '../../games/queries/game-queries';
import { awaits, MyGamesRow } from '../../games/queries/my-games.query';
import type { UnitOptions as DomainUnitOptions, Violation as DomainViolation } from '../../rules/engine/types';
import type { ScenarioFacts } from '../../games/scenario-facts';
import type { PublicMap } from '../scenarios/board-map';
import type { Scenario } from '../scenarios/scenario.model';
import type { AttackOption, BoardView, HistoryEvent, HistoryPhase, MarkerView, StackView, UnitOptions, UnitView } from './board.model';
import { READ_IN_FULL } from './game.model';
import type { Game, GameListing, GameStatus, PhaseMode, PhaseState } from './game.model';

/**
 * Shapes the games module's answers for the API (GraphQL and REST alike). Each function reads
 * only what the games module already computed for the caller, so it cannot add anything the
 * caller's side may not see.
 */
export function toPhaseState(p: PublicPhase): PhaseState {
  const reaction = p.reaction as { side: string; kind: string; prompt: unknown } | null;
  const result = p.result as { winner: string | null; reason: string } | null;
  return {
    status: p.status as GameStatus,
    turn: p.turn,
    phase: p.phase,
    mode: p.mode as PhaseMode,
    acting: [...p.acting],
    deadlineAt: p.deadlineAt ? new Date(p.deadlineAt) : null,
    reaction: reaction ? { side: reaction.side, kind: reaction.kind, prompt: reaction.prompt ?? null } : null,
    result: result ? { winner: result.winner ?? null, reason: result.reason } : null,
  };
}

export function toGame(s: GameSummary): Game {
  return {
    ...toPhaseState(s),
    id: s.gameId,
    title: s.title,
    scenarioId: s.scenarioId,
    scenarioName: s.scenarioName,
    version: s.version,
    mySide: s.mySide,
    awaitingMe: awaits(s.status, s.mySide, s.acting, s.pendingUndo?.proposedBy ?? null),
    seats: s.seats.map((seat) => ({ ...seat })),
    seedCommitment: s.seedCommitment,
    seed: s.seed,
    settings: {
      deadlineHours: s.options.deadlineHours,
      reactionHours: s.options.reactionHours,
      timeout: { kind: s.options.timeout.kind, forfeitAfter: s.options.timeout.forfeitAfter },
      spectators: s.options.spectators,
      vacationDays: s.options.vacationDays,
      snapshotInterval: s.options.snapshotInterval,
    },
    pendingUndo: s.pendingUndo ? { proposedBy: s.pendingUndo.proposedBy, version: s.pendingUndo.version } : null,
    [READ_IN_FULL]: s.inFull,
  };
}

/** A scenario's facts as the API names them, whether it is one on offer or the one a game recorded. */
export function toScenario(f: ScenarioFacts): Scenario {
  return { id: f.id, version: f.version, name: f.name, description: f.description, system: f.systemId, sides: f.sides.map((s) => ({ ...s })), turns: f.turns };
}

export function toListing(r: MyGamesRow): GameListing {
  return {
    id: r.gameId,
    title: r.title,
    scenarioId: r.scenarioId,
    status: r.status as GameStatus,
    turn: r.turn,
    phase: r.phase,
    mode: r.mode as PhaseMode,
    acting: [...r.acting],
    mySide: r.mySide,
    awaitingMe: r.awaitingMe,
    deadlineAt: r.deadlineAt,
    version: r.version,
    updatedAt: r.updatedAt,
  };
}

export function toEvent(e: VisibleEvent): HistoryEvent {
  return { version: e.version, type: e.type, data: e.data, time: new Date(e.time) };
}

export function toHistoryPhase(p: DomainHistoryPhase): HistoryPhase {
  return { turn: p.turn, phase: p.phase, mode: p.mode, acting: [...(p.acting ?? [])], fromVersion: p.fromVersion };
}

export function toOutcomeParts(o: DomainOutcome): { gameId: string; fromVersion: number; version: number; events: HistoryEvent[]; phase: PhaseState } {
  return { gameId: o.gameId, fromVersion: o.fromVersion, version: o.version, events: o.events.map(toEvent), phase: toPhaseState(o.phase) };
}

export function toViolation(v: DomainViolation): { ruleId: string; code: string; message: string; orderIndex: number | null; unit: string | null } {
  return { ruleId: v.ruleId, code: v.code, message: v.message, orderIndex: v.orderIndex ?? null, unit: v.unit ?? null };
}

export function toUnitOptions(o: DomainUnitOptions, targetHex?: string): UnitOptions {
  const attacks: AttackOption[] = o.attacks
    .filter((a) => !targetHex || a.targetHex === targetHex)
    .map((a) => ({ targetHex: a.targetHex, targetIds: [...a.targetIds], preview: a.preview ?? null }));
  return { unitId: o.unitId, moves: o.moves.map((m) => ({ hex: m.hex, cost: m.cost, path: [...m.path], ...(m.with === undefined ? {} : { with: [...m.with] }) })), attacks, other: o.other ?? null, violations: [] };
}

interface KernelLikeView {
  units?: Array<{ id: string; type: string; side: string; loc: { at: string; hex?: string; by?: string | string[]; box?: string }; flags?: unknown; attrs?: unknown; hidden?: string }>;
  markers?: Array<{ hex: string; marker: string; side: string }>;
  timeOfDay?: string | null;
  own?: unknown;
}

/** The typed parts are read from the system's view when it has the kernel's shape; `raw` is always the whole view. */
export function toBoardView(game: Game, board: unknown, map: PublicMap | null): BoardView {
  const v = (board && typeof board === 'object' ? board : {}) as KernelLikeView;
  const units: UnitView[] = (Array.isArray(v.units) ? v.units : []).map((u) => ({
    id: u.id,
    type: u.type,
    side: u.side,
    at: u.loc?.at ?? 'unknown',
    hex: u.loc?.at === 'hex' ? (u.loc.hex ?? null) : null,
    heldBy: u.loc?.by === undefined ? [] : Array.isArray(u.loc.by) ? [...u.loc.by] : [u.loc.by],
    box: u.loc?.at === 'box' ? (u.loc.box ?? null) : null,
    flags: u.flags ?? {},
    values: u.attrs ?? {},
    concealedAs: u.hidden ?? null,
  }));
  const markers: MarkerView[] = (Array.isArray(v.markers) ? v.markers : []).map((m) => ({ hex: m.hex, marker: m.marker, side: m.side }));
  const byHex = new Map<string, StackView>();
  const stackAt = (hex: string) => {
    let s = byHex.get(hex);
    if (!s) byHex.set(hex, (s = { hex, unitIds: [], markers: [] }));
    return s;
  };
  for (const u of units) if (u.hex) stackAt(u.hex).unitIds.push(u.id);
  for (const m of markers) stackAt(m.hex).markers.push(m);
  const stacks = [...byHex.values()].sort((a, b) => (a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0));
  return { version: game.version, game, map, units, stacks, markers, timeOfDay: v.timeOfDay ?? null, own: v.own ?? null, raw: board ?? null };
}
