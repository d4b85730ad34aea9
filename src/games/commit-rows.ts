import type { Cte, SqlParams } from '../database/sql-params';
import type { GameRow } from './game-projection';
import type { JobPlan } from './scheduler/job-planner';

/**
 * What a commit writes besides the events, as parts of the event store's append statement: each
 * part writes only when `guard` holds (the events went in), so a lost race writes nothing.
 */

const GAME_COLUMNS = 'id text, scenario_id text, scenario_version text, system text, title text, created_by text, status text, version int, turn int, phase text, mode text, acting jsonb, undo_by text, deadline_at timestamptz, options jsonb, seed_commitment text, result jsonb';
const UPDATED = ['scenario_id', 'scenario_version', 'system', 'title', 'created_by', 'status', 'version', 'turn', 'phase', 'mode', 'acting', 'undo_by', 'deadline_at', 'options', 'seed_commitment', 'result'];

export function gameRowCte(p: SqlParams, guard: string, row: GameRow, now: Date): Cte {
  const at = `${p.add(now.toISOString())}::timestamptz`;
  return {
    name: 'g_game',
    sql: `INSERT INTO games (${['id', ...UPDATED].join(', ')}, updated_at)
SELECT ${['id', ...UPDATED].map((c) => `r.${c}`).join(', ')}, ${at} FROM jsonb_to_record(${p.json(row)}) AS r(${GAME_COLUMNS}) WHERE ${guard}
ON CONFLICT (id) DO UPDATE SET ${UPDATED.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = EXCLUDED.updated_at`,
  };
}

export interface SeatRow {
  game_id: string;
  side: string;
  player_id: string | null;
  claimed_at: string | null;
}

export function seatsCte(p: SqlParams, guard: string, rows: SeatRow[]): Cte[] {
  if (rows.length === 0) return [];
  return [{
    name: 'g_seats',
    sql: `INSERT INTO seats (game_id, side, player_id, claimed_at)
SELECT game_id, side, player_id, claimed_at FROM jsonb_to_recordset(${p.json(rows)}) AS r(game_id text, side text, player_id text, claimed_at timestamptz) WHERE ${guard}
ON CONFLICT (game_id, side) DO UPDATE SET player_id = EXCLUDED.player_id, claimed_at = EXCLUDED.claimed_at`,
  }];
}

export interface JobRow {
  id: string;
  kind: string;
  game_version: number;
  side: string | null;
  due_at: string;
}

/** Sibling parts see the table as it was before the statement, so the UPDATE never cancels the new jobs. */
export function jobsCtes(p: SqlParams, guard: string, gameId: string, plan: JobPlan, rows: JobRow[]): Cte[] {
  if (!plan.cancel.length && !rows.length) return [];
  const game = p.add(gameId);
  return [
    {
      name: 'g_jobs_cancelled',
      sql: `UPDATE scheduled_jobs SET status = 'cancelled'
WHERE ${guard} AND game_id = ${game} AND status = 'pending' AND kind = ANY(${p.add(plan.cancel)}::text[])`,
    },
    {
      name: 'g_jobs_added',
      sql: `INSERT INTO scheduled_jobs (id, game_id, kind, game_version, side, due_at)
SELECT j.id, ${game}, j.kind, j.game_version, j.side, j.due_at
FROM jsonb_to_recordset(${p.json(rows)}) AS j(id text, kind text, game_version int, side text, due_at timestamptz) WHERE ${guard}`,
    },
  ];
}

export function snapshotCte(p: SqlParams, guard: string, gameId: string, version: number, state: unknown): Cte {
  return {
    name: 'g_snapshot',
    sql: `INSERT INTO snapshots (game_id, version, state)
SELECT ${p.add(gameId)}, ${p.add(version)}::int, ${p.jsonText(state)} WHERE ${guard}
ON CONFLICT (game_id, version) DO NOTHING`,
  };
}
