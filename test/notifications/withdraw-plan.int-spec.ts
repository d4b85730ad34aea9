import type { PoolClient } from 'pg';
import type { PrismaService } from '../../src/database/prisma.service';
import { SqlParams, withCtes } from '../../src/database/sql-params';
import type { PrepareOptions } from '../../src/notifications/notification-intent';
import { PostgresNotificationOutbox } from '../../src/notifications/outbox/outbox.service';
import { testDatabaseUrl, testPrisma } from '../support/database';
import { notificationsConfig } from './support/harness';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/**
 * A game's commit withdraws its queued notices (reminders, undo notices, calls to act) in the
 * same statement. Every game's commit does, so it must reach that game's waiting deliveries
 * through indexes, not read every queued delivery of every game (a backlog while a mail server
 * is down) nor every notification ever sent.
 */
describe('the withdrawal of a game’s queued notices, planned on a database with many deliveries', () => {
  let prisma: PrismaService;
  let client: PoolClient;
  let outbox: PostgresNotificationOutbox;

  beforeAll(async () => {
    prisma = testPrisma(2);
    outbox = new PostgresNotificationOutbox(notificationsConfig(testDatabaseUrl()), { now: () => new Date('2026-12-01T12:00:00Z') }, prisma);
    client = await prisma.pool.connect();
    // Written in a transaction that is rolled back: nothing stays, and other tests see none of it.
    await client.query('BEGIN');
    await client.query(`INSERT INTO players (id, email, display_name, time_zone)
      SELECT 'plan-p' || i, 'plan-p' || i || '@players.test', 'P' || i, 'UTC' FROM generate_series(1, 100) i`);
    await client.query(`INSERT INTO notifications (id, player_id, game_id, kind, side, game_version, content)
      SELECT 'plan-n' || i, 'plan-p' || (i % 100 + 1), 'plan-g' || (i % 500), (ARRAY['your_turn', 'deadline_reminder', 'undo_proposed', 'phase_resolved'])[i % 4 + 1], 'blue', i, '{}'
      FROM generate_series(1, 40000) i`);
    // Most deliveries are done; a backlog of 10,000 waits (some held for a digest).
    await client.query(`INSERT INTO notification_deliveries (id, notification_id, player_id, channel, status, not_before)
      SELECT 'plan-d' || i, 'plan-n' || i, 'plan-p' || (i % 100 + 1), 'email',
        CASE WHEN i <= 30000 THEN 'delivered' WHEN i % 5 = 0 THEN 'held' ELSE 'pending' END, now()
      FROM generate_series(1, 40000) i`);
    await client.query('ANALYZE notifications, notification_deliveries');
  });
  afterAll(async () => {
    await client?.query('ROLLBACK');
    client?.release();
    await prisma?.onModuleDestroy();
  });

  async function plan(options: PrepareOptions): Promise<PlanNode[]> {
    const prepared = await outbox.prepare([], undefined, options);
    const p = new SqlParams();
    const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${withCtes(prepared.ctes(p, 'true'), 'SELECT 1')}`, p.values);
    return nodes((rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
  }

  it.each<[string, PrepareOptions]>([
    ['a game that ended', { gameEndedIn: 'plan-g17' }],
    ['a deadline that changed', { deadlineChangedIn: 'plan-g17' }],
    ['a side that acted', { deadlineChangedIn: 'plan-g17', remindersOf: ['plan-p18'] }],
    ['an undo proposal closed', { undoClosedIn: 'plan-g17' }],
  ])('for %s, finds the game’s notifications and their waiting deliveries by index', async (_what, options) => {
    const all = await plan(options);
    const scanned = (table: string) => all.filter((n) => n['Relation Name'] === table && n['Node Type'] !== 'ModifyTable');
    expect(scanned('notifications').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(scanned('notification_deliveries').map((n) => n['Node Type'])).not.toContain('Seq Scan');
    // A bitmap scan names its index on its child node, which names no table.
    const indexes = all.map((n) => n['Index Name']);
    expect(indexes).toContain('notifications_game_id_kind_idx');
    expect(indexes).toContain('notification_deliveries_waiting_idx');
  });
});
