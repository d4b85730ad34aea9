import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG } from '../../config/config.module';
import { DEADLINE_HOURS, type AppConfig } from '../../config/config.schema';
import { BadInputError } from '../../common/errors';
import { GAME_CATALOG, GameCatalog } from '../game-catalog';
import { ID_GENERATOR, IdGenerator } from '../game-clock';
import { GameCommitter } from '../game-committer';
import { AppEvent, appDraft, Draft, GameOptions } from '../game-envelope';
import type { GameCreatedData } from '../game-fold';
import { scenarioNotFound } from '../games.errors';
import { commitmentOf, newSeed } from '../dice/server-dice';

export interface CreateGame {
  scenarioId: string;
  title?: string;
  /** The side the creator takes; omit to only organise the game. */
  side?: string;
  options?: Partial<GameOptions>;
}

/** The shortest reaction window: one a player can still answer after the notice reaches them. */
const REACTION_HOURS_MIN = 0.25;

@Injectable()
export class CreateGameHandler {
  constructor(
    private readonly committer: GameCommitter,
    @Inject(GAME_CATALOG) private readonly catalog: GameCatalog,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(cmd: CreateGame, playerId: string): Promise<{ gameId: string; version: number; seedCommitment: string }> {
    const entry = this.catalog.get(cmd.scenarioId);
    if (!entry) throw scenarioNotFound(cmd.scenarioId);
    const sides = entry.sides.map((s) => s.id);
    if (cmd.side !== undefined && !sides.includes(cmd.side)) {
      throw new BadInputError('game/unknown_side', `Scenario ${entry.id} has no side "${cmd.side}"; its sides are ${sides.join(', ')}.`, { field: 'side' });
    }
    const options = this.options(cmd.options ?? {});
    const gameId = this.ids.next('game');
    const seed = newSeed();
    const created: GameCreatedData = {
      id: gameId,
      scenarioId: entry.id,
      scenarioVersion: entry.version,
      systemId: entry.systemId,
      title: cmd.title?.trim() || `${entry.name}`,
      createdBy: playerId,
      options,
      seedCommitment: commitmentOf(seed),
      sides,
    };
    const drafts: Draft[] = [
      appDraft(AppEvent.GameCreated, created),
      ...entry.system.start(entry.scenario, { sides }).map((e): Draft => ({ source: 'rules', ...e })),
    ];
    if (cmd.side) drafts.push(appDraft(AppEvent.SeatClaimed, { side: cmd.side, playerId }));
    const done = await this.committer.commit(entry.system, undefined, 0, drafts, {
      actor: playerId,
      correlationId: randomUUID(),
      inTransaction: (tx) => tx.gameSecret.create({ data: { gameId, seed } }).then(() => undefined),
    });
    return { gameId, version: done.toVersion, seedCommitment: created.seedCommitment };
  }

  private options(o: Partial<GameOptions>): GameOptions {
    const merged: GameOptions = {
      deadlineHours: o.deadlineHours ?? this.config.games.defaultDeadlineHours,
      reactionHours: o.reactionHours ?? Math.min(24, o.deadlineHours ?? this.config.games.defaultDeadlineHours),
      timeout: { kind: o.timeout?.kind ?? 'pass', forfeitAfter: o.timeout?.forfeitAfter ?? 3 },
      spectators: o.spectators ?? false,
      snapshotInterval: o.snapshotInterval ?? 100,
      vacationDays: o.vacationDays ?? 14,
    };
    const problems: string[] = [];
    if (!(merged.deadlineHours >= DEADLINE_HOURS.min && merged.deadlineHours <= DEADLINE_HOURS.max)) problems.push(`deadlineHours must be between ${DEADLINE_HOURS.min} and ${DEADLINE_HOURS.max}`);
    // Left out, the window follows the deadline and is good whenever the deadline is: a bad deadline is then the one problem.
    const reactionBad = !(merged.reactionHours >= REACTION_HOURS_MIN && merged.reactionHours <= merged.deadlineHours);
    if (reactionBad && o.reactionHours !== undefined) problems.push(`reactionHours must be from ${REACTION_HOURS_MIN} (15 minutes) to deadlineHours`);
    if (!['pass', 'forfeit'].includes(merged.timeout.kind)) problems.push('timeout.kind must be "pass" or "forfeit"');
    if (!(Number.isInteger(merged.timeout.forfeitAfter) && merged.timeout.forfeitAfter >= 1 && merged.timeout.forfeitAfter <= 100)) problems.push('timeout.forfeitAfter must be an integer from 1 to 100');
    if (!(Number.isInteger(merged.snapshotInterval) && merged.snapshotInterval >= 10 && merged.snapshotInterval <= 10_000)) problems.push('snapshotInterval must be an integer from 10 to 10000');
    if (!(merged.vacationDays >= 0 && merged.vacationDays <= 60)) problems.push('vacationDays must be from 0 to 60');
    if (problems.length) throw new BadInputError('game/bad_options', problems.join('; '), { problems });
    return merged;
  }
}
