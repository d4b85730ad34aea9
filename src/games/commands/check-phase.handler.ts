import { Injectable } from '@nestjs/common';
import type { RawSubmission, Violation } from '../../rules/engine/types';
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
  constructor(private readonly loader: GameLoader) {}

  async execute(cmd: CheckPhase, playerId: string): Promise<PhaseCheck> {
    const submission = requireKind(cmd.submission);
    // The process's own copy at the version the client saw saves a read. Should another instance
    // have moved the game on meanwhile, the check answers for that version, and the submission
    // then meets the commit's version check, as one from the same copy would.
    const game = this.loader.held(cmd.gameId, cmd.expectedVersion) ?? (await this.loader.load(cmd.gameId));
    const side = requireSide(game.state, playerId);
    const checked = checkSubmission(game, side, cmd.expectedVersion, submission);
    return { valid: checked.ok, version: game.version, violations: checked.ok ? [] : checked.violations };
  }
}
