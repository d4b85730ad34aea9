import { CALLS_TO_ACT_NOW, type NotificationKind } from './notification-intent';

/** A reminder is about the deadline of a turn already told: it supersedes no call to act. */
export const NEW_TURNS: readonly NotificationKind[] = ['your_turn', 'reaction_requested', 'game_started'];

/**
 * Why the notification `n` (of game `g`, LEFT JOINed) is out of date, or NULL. A call to act now
 * is outdated once the game has gone on and the side no longer acts (it has acted, missed its
 * turn, or the game is over), or once a later call to act in that game has been written for the
 * player: after a night of quiet hours the player hears of the phase that is theirs now, not of
 * every phase played meanwhile. `kinds` and `newTurns` are the placeholders bound to
 * OUTDATED_CALL_PARAMS. The worker asks before it sends; a redelivery asks before it is queued.
 */
export function outdatedCallSql(kinds: string, newTurns: string): string {
  return `CASE WHEN NOT coalesce(n.kind = ANY(${kinds}::text[]) AND (n.content->>'yourTurn')::boolean AND g.version > n.game_version, false) THEN NULL
            WHEN NOT (g.status = 'active' AND g.acting @> jsonb_build_array(n.side)) THEN 'the game went on: that side no longer acts'
            WHEN EXISTS (SELECT 1 FROM notifications later
                         WHERE later.game_id = n.game_id AND later.kind = ANY(${newTurns}::text[]) AND later.player_id = n.player_id
                           AND later.game_version > n.game_version) THEN 'the game went on: a later notice tells the player of their turn'
       END`;
}

export const OUTDATED_CALL_PARAMS = [CALLS_TO_ACT_NOW, NEW_TURNS] as const;
