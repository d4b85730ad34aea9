import { Inject, Injectable } from '@nestjs/common';
import { clientEcho } from '../../common/error-mapping';
import type { RawSubmission, Violation } from '../../rules/engine/types';
import { CLOCK, Clock } from '../game-clock';
import { GameLoader } from '../game-loader';
import { requireSide } from '../seats';
import { checkSubmission, requireKind } from './check-submission';

export interface CheckPhase {
  gameId: string;
  expectedVersion: number;
  submission: RawSubmission;
}

export interface PhaseCheck {
  valid: boolean;
  /** The version checked against: the one to submit at. */
  version: number;
  violations: Violation[];
}

/**
 * A dry run of SubmitPhase: its checks up to the rules engine's validate, and nothing after, so
 * no dice, no write, no notification and no idempotency key. A client building a long phase
 * learns what is wrong without a refusal costing it anything.
 */
@Injectable()
export class CheckPhaseHandler {
  constructor(
    private readonly loader: GameLoader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(cmd: CheckPhase, playerId: string): Promise<PhaseCheck> {
    const submission = requireKind(cmd.submission);
    // Always the game as the database has it now: a copy this process holds is only brought up to
    // date (the events after it, usually none). Answering from the copy alone would call a phase
    // valid at a version another instance has moved past; unlike a submission, a dry run has no
    // commit whose version check would catch that.
    const game = await this.loader.loadFor(cmd.gameId, playerId);
    const side = requireSide(game.state, playerId);
    const checked = checkSubmission(game, side, cmd.expectedVersion, submission, this.clock.now());
    // Answered as data, not as an error, so cut here as the error mapping cuts a refusal's: messages repeat the orders sent.
    return { valid: checked.ok, version: game.version, violations: checked.ok ? [] : clientEcho(checked.violations) };
  }
}
