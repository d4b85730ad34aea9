import type { PrismaService } from '../../database/prisma.service';

export type MyGamesFilter = 'awaiting' | 'active' | 'finished' | 'all';

export interface MyGamesRow {
  gameId: string;
  title: string;
  scenarioId: string;
  status: string;
  turn: number;
  phase: string;
  mode: string;
  acting: string[];
  mySide: string | null;
  awaitingMe: boolean;
  deadlineAt: Date | null;
  version: number;
  updatedAt: Date;
}

/**
 * Each filter in SQL, so that a page reads only its own rows: "awaiting" used to load every
 * game of the player to keep the few where their side acts.
 */
const FILTERS: Record<MyGamesFilter, string> = {
  all: 'TRUE',
  active: `g.status IN ('seating', 'active')`,
  finished: `g.status = 'finished'`,
  // A side acts, or another side's undo proposal waits for its answer.
  awaiting: 'g.status = \'active\' AND (g.acting @> jsonb_build_array(m.side) OR g.undo_by <> m.side)',
};

/**
 * The games a player holds a seat in, and those they organise without one (they created the
 * game, invite its players and may read it, so it is theirs to find), newest activity first.
 * `limit + 1` rows are read to tell whether another page follows.
 */
export async function listMyGames(prisma: PrismaService, playerId: string, filter: MyGamesFilter, limit: number, after?: { updatedAt: Date; id: string }) {
  const rows = await prisma.$queryRawUnsafe<Array<Omit<MyGamesRow, 'awaitingMe'> & { undoBy: string | null }>>(
    `WITH mine AS (
       SELECT game_id, side FROM seats WHERE player_id = $1
       UNION ALL
       SELECT id, NULL FROM games g
       WHERE created_by = $1 AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.player_id = $1))
     SELECT g.id AS "gameId", g.title, g.scenario_id AS "scenarioId", g.status, g.turn, g.phase, g.mode, g.acting,
            m.side AS "mySide", g.undo_by AS "undoBy", g.deadline_at AS "deadlineAt", g.version, g.updated_at AS "updatedAt"
     FROM mine m JOIN games g ON g.id = m.game_id
     WHERE ${FILTERS[filter]} AND ($2::timestamptz IS NULL OR (g.updated_at, g.id) < ($2::timestamptz, $3::text))
     ORDER BY g.updated_at DESC, g.id DESC
     LIMIT $4`,
    playerId,
    after?.updatedAt ?? null,
    after?.id ?? null,
    limit + 1,
  );
  const items = rows.slice(0, limit).map(({ undoBy, ...g }) => {
    const acting = (g.acting as string[] | null) ?? [];
    return { ...g, acting, awaitingMe: awaits(g.status, g.mySide, acting, undoBy) };
  });
  return { items, hasMore: rows.length > limit };
}

/**
 * Whether the game waits for this player: their side acts, or another side's undo proposal waits
 * for their answer (the proposer usually holds its next move until it has one).
 */
export function awaits(status: string, mySide: string | null, acting: readonly string[], undoBy: string | null): boolean {
  return status === 'active' && mySide !== null && (acting.includes(mySide) || (undoBy !== null && undoBy !== mySide));
}
