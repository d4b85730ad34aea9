import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.schema';
import { PrismaService, Tx } from '../database/prisma.service';
import { EventStore } from '../event-store/event-store.service';
import type { NewEvent, StoredEvent } from '../event-store/event-store.types';
import { NOTIFICATION_OUTBOX, NotificationOutbox, PrepareOptions, RecipientSettings } from '../notifications/notification-intent';
import type { GameSystem } from '../rules/engine/types';
import { CLOCK, Clock, ID_GENERATOR, IdGenerator } from './game-clock';
import { AppEvent, appDraft, Draft, GameEnvelope } from './game-envelope';
import type { GameEventMeta } from './game-events';
import { foldGame } from './game-fold';
import { GameLoader } from './game-loader';
import { followUps, stillToAct } from './game-followups';
import { gameRowCte, jobsCtes, SeatRow, seatsCte, snapshotCte } from './commit-rows';
import { projectGame } from './game-projection';
import { planNotifications } from './notification-planner';
import { planJobs, reminderLeads } from './scheduler/job-planner';

export interface CommitContext {
  actor: string | null;
  correlationId: string;
  idempotencyKey?: string;
  requestHash?: string;
  /** Writes of other modules that must commit with these events (a new game's secret, a used invitation), run first in one transaction with them. */
  inTransaction?: (tx: Tx) => Promise<void>;
  /** Reads started before the decision (prefetch), so that their round trip overlapped it. */
  prefetched?: Prefetched;
}

/** Reads a commit may need that do not depend on the decision. */
export interface Prefetched {
  readonly settings?: Promise<RecipientSettings>;
}

export interface Committed {
  fromVersion: number;
  toVersion: number;
  events: StoredEvent[];
  state: GameEnvelope;
  replayed: boolean;
}

/**
 * Writes a decision: the events, plus everything that must change with them in the same
 * transaction (the games row, the outbox rows of the notifications, the scheduled jobs and a
 * snapshot when one is due). Every command goes through here, so none can forget a part.
 */
@Injectable()
export class GameCommitter {
  constructor(
    private readonly prisma: PrismaService,
    private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly loader: GameLoader,
    @Optional() @Inject(NOTIFICATION_OUTBOX) private readonly outbox?: NotificationOutbox,
  ) {}

  /**
   * Starts the reads a commit of this game will need whatever is decided: its players' settings
   * (notifications and reminders). A command starts them before the rules engine runs, so that
   * the round trip overlaps that work; one refused by the rules never awaits them.
   */
  prefetch(state: GameEnvelope): Prefetched {
    if (!this.outbox) return {};
    const settings = this.outbox.settingsFor(state.id, seatedPlayers(state));
    settings.catch(() => undefined); // a refused command drops it; commit awaits (and throws) otherwise
    return { settings };
  }

  async commit(system: GameSystem, loaded: GameEnvelope | undefined, version: number, drafts: Draft[], ctx: CommitContext): Promise<Committed> {
    const now = this.clock.now();
    // The events fold on the log's own state: the standing orders a load laid over it (decided
    // with already) are no part of the log, so neither of what is cached or snapshotted.
    const before = loaded && this.loader.logState(loaded);
    let after = before;
    let v = version;
    const step = (d: Draft) => {
      v += 1;
      after = foldGame(system, after, { type: d.type, data: d.data, version: v, meta: { source: d.source, time: now.toISOString(), reveals: d.reveals } });
    };
    // Folds the drafts, each followed by the UndoLapsed of a proposal it dropped unanswered.
    const fold = (ds: Draft[]): Draft[] =>
      ds.flatMap((d) => {
        const open = after?.pendingUndo;
        step(d);
        const lapsed = open && !after!.pendingUndo ? undoLapsed(open, d) : null;
        if (lapsed) step(lapsed);
        return lapsed ? [d, lapsed] : [d];
      });
    const decided = fold(drafts);
    const gameId = after!.id;
    const all = [...decided, ...fold(await this.withSeed(gameId, followUps(system, before, after!, now, decided)))];
    const final = after!;

    const events: NewEvent[] = all.map((d) => ({
      type: d.type,
      data: d.data,
      meta: {
        actor: ctx.actor,
        correlationId: ctx.correlationId,
        time: now.toISOString(),
        source: d.source,
        visibility: d.visibility,
        ...(d.reveals ? { reveals: true } : {}),
      } satisfies GameEventMeta,
    }));
    const stored: StoredEvent[] = events.map((e, i) => ({ position: '', gameId, version: version + 1 + i, type: e.type, data: e.data, meta: e.meta }));
    // With the notifications module, its one read (the players' settings and names) serves the
    // notifications and the reminder jobs; usually it was prefetched while the rules engine ran.
    const settings = this.outbox ? await this.settings(final, ctx.prefetched) : undefined;
    const intents = settings ? planNotifications({
      system,
      after: final,
      version: v,
      events: stored,
      playerNames: namesOf(final, settings),
      publicUrl: this.config.publicUrl,
    }) : [];
    // planJobs reads the leads only when the deadline changed.
    const jobs = planJobs(before, final, now, reminderLeads(final, settings), v);
    const ended = final.status === 'finished' && before?.status !== 'finished';
    const stale = !ended && remindersStale(before, all);
    const done = ended || stale ? [] : remindersDone(system, before, final);
    const undoClosed = !ended && !!before?.pendingUndo && !final.pendingUndo;
    const withdraw: PrepareOptions = ended
      ? { gameEndedIn: gameId }
      : {
          ...(stale ? { deadlineChangedIn: gameId } : done.length ? { deadlineChangedIn: gameId, remindersOf: done } : {}),
          ...(undoClosed ? { undoClosedIn: gameId } : {}),
        };
    const prepared = settings && (intents.length || Object.keys(withdraw).length) ? await this.outbox!.prepare(intents, settings, withdraw) : undefined;
    const every = final.options.snapshotInterval;
    const snapshotDue = Math.floor(v / every) > Math.floor(version / every);

    const append = (tx?: Tx) =>
      this.store.append(gameId, version, events, {
        tx,
        idempotencyKey: ctx.idempotencyKey,
        requestHash: ctx.requestHash,
        alsoWrite: (p, guard) => [
          gameRowCte(p, guard, projectGame(system, final, v), now),
          ...seatsCte(p, guard, this.seatRows(before, final, now)),
          ...jobsCtes(p, guard, gameId, jobs, jobs.add.map((j) => ({ id: this.ids.next('job'), kind: j.kind, game_version: j.gameVersion, side: j.side, due_at: j.dueAt.toISOString() }))),
          ...(prepared?.ctes(p, guard) ?? []),
          ...(snapshotDue ? [snapshotCte(p, guard, gameId, v, final)] : []),
        ],
      });
    // One statement, one round trip. Only writes of other modules (a new game's secret, a used
    // invitation) need a transaction around it.
    const inTransaction = ctx.inTransaction;
    const appended = inTransaction
      ? await this.prisma.$transaction(async (tx) => {
          await inTransaction(tx);
          return append(tx);
        })
      : await append();
    if (appended.replayed) return { fromVersion: appended.fromVersion, toVersion: appended.toVersion, events: [], state: final, replayed: true };
    // The next command on this game starts from here instead of folding these events again.
    this.loader.remember(gameId, v, final);
    return { fromVersion: version + 1, toVersion: v, events: stored, state: final, replayed: false };
  }

  private seatRows(before: GameEnvelope | undefined, after: GameEnvelope, now: Date): SeatRow[] {
    return Object.entries(after.seats)
      .filter(([side, playerId]) => !before || before.seats[side] !== playerId)
      .map(([side, playerId]) => ({ game_id: after.id, side, player_id: playerId, claimed_at: playerId ? now.toISOString() : null }));
  }

  /** The secret seed is read only when the game ends and it is revealed. */
  private async withSeed(gameId: string, drafts: Draft[]): Promise<Draft[]> {
    if (!drafts.some((d) => d.type === AppEvent.SeedRevealed)) return drafts;
    const secret = await this.prisma.gameSecret.findUnique({ where: { gameId } });
    return drafts.map((d) => (d.type === AppEvent.SeedRevealed ? { ...d, data: { seed: secret?.seed ?? null } } : d));
  }

  /** The players' settings: those prefetched if they cover every seat, else read now. */
  private async settings(state: GameEnvelope, prefetched: Prefetched | undefined): Promise<RecipientSettings | undefined> {
    if (!this.outbox) return undefined;
    const players = seatedPlayers(state);
    const early = prefetched?.settings ? await prefetched.settings : undefined;
    if (early && early.gameId === state.id && players.every((p) => early.reminderLeadMinutes(p) !== undefined)) return early;
    return this.outbox.settingsFor(state.id, players);
  }
}

/**
 * The event that closes a proposal `d` dropped without answering it: a submission, by either side
 * (`by`), or the end of the game (`by` null). An answer closes it itself.
 */
function undoLapsed(open: NonNullable<GameEnvelope['pendingUndo']>, d: Draft): Draft | null {
  if (d.type === AppEvent.UndoAccepted || d.type === AppEvent.UndoDeclined) return null;
  const by = d.type === AppEvent.PhaseSubmitted ? ((d.data as { side: string }).side) : null;
  return appDraft(AppEvent.UndoLapsed, { side: open.proposedBy, proposedAt: open.version, by, ...((d.data as { auto?: boolean } | null)?.auto && by ? { auto: true } : {}) });
}

/**
 * Whether the reminders of the old deadline still waiting to go out are wrong now: a new
 * deadline replaced it (the end of the game withdraws them with every other call to act). Only
 * a reminded deadline has any, so most commits skip the extra write. A vacation's pause or
 * restart (retimed) keeps them: in a simultaneous phase the other side's deadline is still to come.
 */
function remindersStale(before: GameEnvelope | undefined, drafts: readonly Draft[]): boolean {
  if (!before?.deadline?.reminded) return false;
  return drafts.some((d) => d.type === AppEvent.DeadlineSet && !(d.data as { retimed?: boolean }).retimed);
}

/**
 * The players whose sides this commit made done with a reminded deadline that runs on for the
 * others (their part of a simultaneous phase is in): their reminders still waiting to go out
 * would tell them of a deadline that no longer binds them.
 */
function remindersDone(system: GameSystem, before: GameEnvelope | undefined, after: GameEnvelope): string[] {
  if (!before?.deadline?.reminded || before.status !== 'active' || after.status !== 'active') return [];
  return before.deadline.sides
    .filter((s) => stillToAct(system, before, s) && !stillToAct(system, after, s))
    .flatMap((s) => (after.seats[s] ? [after.seats[s]!] : []));
}

function seatedPlayers(state: GameEnvelope): string[] {
  return [...new Set(Object.values(state.seats).filter((p): p is string => !!p))];
}

function namesOf(state: GameEnvelope, settings: RecipientSettings): Record<string, string> {
  return Object.fromEntries(seatedPlayers(state).flatMap((p) => {
    const name = settings.displayName(p);
    return name === undefined ? [] : [[p, name]];
  }));
}
