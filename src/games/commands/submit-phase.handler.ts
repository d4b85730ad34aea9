import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { IdempotencyKeyReusedError } from '../../event-store/event-store.errors';
import type { RawSubmission, SideId } from '../../rules/engine/types';
import { canonical } from '../../common/canonical-json';
import { BadInputError } from '../../common/errors';
import { charCount } from '../../common/text-length';
import { DICE_SOURCE, DiceSourceFactory } from '../dice/dice-source';
import { GameSecrets } from '../dice/game-secrets';
import { RecordingDice } from '../dice/server-dice';
import { CLOCK, Clock } from '../game-clock';
import { GameCommitter } from '../game-committer';
import { Draft } from '../game-envelope';
import { GameLoader, LoadedGame } from '../game-loader';
import { EventStore } from '../../event-store/event-store.service';
import { Outcome, outcomeFor } from '../outcome';
import { requireSide } from '../seats';
import { STANDING_ORDERS_SET, StandingOrdersSetData, StandingOrdersStore } from '../standing-orders-store';
import { decideSubmission, requireKind } from './check-submission';
import { phaseSubmitted } from './phase-submitted';
import { diceDrafts } from './dice-drafts';

export interface SubmitPhase {
  gameId: string;
  expectedVersion: number;
  submission: RawSubmission;
  idempotencyKey: string;
}

/** What a checked submission comes to: events for the log, or a side's new standing orders, kept beside it. */
type Decision = { drafts: Draft[] } | { standing: StandingOrdersSetData['orders'] };

/**
 * The heart of play: check, resolve with server dice, and write, in that order. Nothing is
 * written unless every check passed; a retry with the same idempotency key returns the first
 * answer and never rolls again. Standing orders are checked the same way but kept out of the log
 * (StandingOrdersStore): the game's version does not move, so the other side cannot tell.
 */
@Injectable()
export class SubmitPhaseHandler {
  constructor(
    private readonly store: EventStore,
    private readonly loader: GameLoader,
    private readonly committer: GameCommitter,
    private readonly standing: StandingOrdersStore,
    private readonly secrets: GameSecrets,
    @Inject(DICE_SOURCE) private readonly diceSource: DiceSourceFactory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(cmd: SubmitPhase, playerId: string): Promise<Outcome> {
    if (!cmd.idempotencyKey) throw new BadInputError('request/idempotency_key', 'idempotencyKey is required (1-200 characters).', { field: 'idempotencyKey' });
    if (charCount(cmd.idempotencyKey) > 200) throw new BadInputError('request/idempotency_key', 'idempotencyKey is too long: at most 200 characters.', { field: 'idempotencyKey' });
    requireKind(cmd.submission);
    // Per player and per game: a client naming its keys after the phase ("setup-1") reuses a name in
    // its next game, which is a new request, not a retry.
    const key = `${playerId}:${cmd.gameId}:${cmd.idempotencyKey}`;
    const requestHash = hashRequest(cmd);
    const held = this.loader.held(cmd.gameId, cmd.expectedVersion);
    const loaded = held ?? (await this.loadUnlessReplay(cmd, key, requestHash, playerId));
    if ('replayed' in loaded) return loaded.replayed;
    const side = requireSide(loaded.state, playerId);
    // The commit's read of the players' settings goes out now and overlaps the rules engine. The
    // pool sends a query only on a later tick, so let the event loop turn once before the engine
    // holds it. A game held in memory still needs the standing orders of now.
    const prefetched = this.committer.prefetch(loaded.state);
    const [seed, game] = await Promise.all([this.secrets.seedOf(cmd.gameId), held ? this.loader.current(held) : loaded, new Promise((resolve) => setImmediate(resolve))]);
    let decision: Decision;
    try {
      decision = this.decide(game, side, cmd, seed);
    } catch (err) {
      // The key was not looked up for a held game: a refusal answers as a process that read it
      // would (a key already used with other orders is refused as such, whatever the orders).
      const replayed = held ? await this.replay(key, requestHash, cmd.gameId, playerId) : null;
      if (replayed) return replayed;
      throw err;
    }
    if ('standing' in decision) return this.setStanding(game, side, decision.standing, cmd, key, requestHash, playerId);
    const done = await this.committer
      .commit(game.system, game.state, game.version, decision.drafts, {
        actor: playerId,
        correlationId: randomUUID(),
        idempotencyKey: key,
        requestHash,
        prefetched,
      })
      .catch((err: unknown) => {
        // The store names the key as it keeps it, behind the player's id: the client sent only its own part.
        throw err instanceof IdempotencyKeyReusedError ? new IdempotencyKeyReusedError(cmd.idempotencyKey) : err;
      });
    if (done.replayed) return (await this.replay(key, requestHash, cmd.gameId, playerId))!;
    return outcomeFor(game.system, done.state, done.events, { kind: 'side', side }, done.fromVersion, done.toVersion);
  }

  /**
   * The game as the database has it, or the first answer to this key. Skipped when this process
   * holds the game at the version the player saw: nothing is read, and the commit's version
   * check and key claim still catch a newer game (a conflict) or a retry (the first answer).
   */
  private async loadUnlessReplay(cmd: SubmitPhase, key: string, requestHash: string, playerId: string): Promise<LoadedGame | { replayed: Outcome }> {
    // Both reads go out at once: a retry is rare, and waiting for its answer first costs a round trip.
    const loading = this.loader.loadFor(cmd.gameId, playerId).then((g) => ({ g }), (error: unknown) => ({ error }));
    const replay = await this.replay(key, requestHash, cmd.gameId, playerId);
    if (replay) return { replayed: replay };
    const loaded = await loading;
    if ('error' in loaded) throw loaded.error;
    return loaded.g;
  }

  private decide(game: LoadedGame, side: SideId, cmd: SubmitPhase, seed: string): Decision {
    const { state } = game;
    const dice = new RecordingDice(state.diceCounter, this.diceSource(seed, state.id));
    const rulesEvents = decideSubmission(game, side, cmd.expectedVersion, cmd.submission, this.clock.now(), dice);
    if (cmd.submission.kind === 'standing-orders') {
      // The engine says what the orders come to (its one StandingOrdersSet); the loader sets them so again.
      const set = rulesEvents.length === 1 && rulesEvents[0]!.type === STANDING_ORDERS_SET ? (rulesEvents[0]!.data as StandingOrdersSetData) : null;
      if (!set || set.side !== side) throw new Error(`standing orders resolved to ${rulesEvents.map((e) => e.type).join(', ') || 'nothing'}`);
      return { standing: set.orders };
    }
    return {
      drafts: [
        phaseSubmitted(side, cmd.submission),
        ...diceDrafts(dice.rolls),
        ...rulesEvents.map((e): Draft => ({ source: 'rules', ...e })),
      ],
    };
  }

  /**
   * Keeps the side's new standing orders beside the log: no event, so no version, notification or
   * subscription event that the other side could notice. Checked against the version the player
   * sent, and saved only while the game is still at it (else a conflict, as for orders). The
   * answer is the game unchanged: no events, `fromVersion` one past `version`, the empty range
   * an idempotent retry gives back too.
   */
  private async setStanding(game: LoadedGame, side: SideId, orders: StandingOrdersSetData['orders'], cmd: SubmitPhase, key: string, requestHash: string, playerId: string): Promise<Outcome> {
    const saved = await this.standing.save(cmd.gameId, side, orders, game.version, { key, hash: requestHash }).catch((err: unknown) => {
      throw err instanceof IdempotencyKeyReusedError ? new IdempotencyKeyReusedError(cmd.idempotencyKey) : err;
    });
    if (saved.replayed) return (await this.replay(key, requestHash, cmd.gameId, playerId))!;
    return outcomeFor(game.system, game.state, [], { kind: 'side', side }, game.version + 1, game.version);
  }

  private async replay(key: string, requestHash: string, gameId: string, playerId: string): Promise<Outcome | null> {
    const earlier = await this.store.keyedResult(key);
    if (!earlier) return null;
    // The key names the game, so only the request can differ.
    if (earlier.requestHash !== requestHash) throw new IdempotencyKeyReusedError(key.slice(`${playerId}:${gameId}:`.length));
    const game = await this.loader.loadFor(gameId, playerId, earlier.toVersion);
    const events = await this.store.readStream(gameId, earlier.fromVersion, earlier.toVersion);
    const side = requireSide(game.state, playerId);
    return outcomeFor(game.system, game.state, events, { kind: 'side', side }, earlier.fromVersion, earlier.toVersion);
  }
}

/**
 * Keys sorted, as the order of an object's keys carries no meaning in JSON: a retry rebuilt by
 * the client with them in another order is the same request, not a reused key. A list keeps
 * its order, which can matter (orders are carried out in turn).
 */
function hashRequest(cmd: SubmitPhase): string {
  return createHash('sha256').update(JSON.stringify(canonical([cmd.gameId, cmd.expectedVersion, cmd.submission.kind, cmd.submission.orders ?? null]))).digest('hex');
}
