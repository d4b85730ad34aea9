import type { Tx } from './prisma.service';

/**
 * Holds the player's row until the transaction ends, so that the player's own requests that
 * count rows before writing one (tokens, sign-in links, notification endpoints) run one at a
 * time: each counted before the others had written theirs, and requests sent at once went past
 * the caps. False when there is no such player.
 */
export async function lockPlayer(tx: Tx, playerId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 FROM players WHERE id = ${playerId} FOR UPDATE`;
  return rows.length > 0;
}
