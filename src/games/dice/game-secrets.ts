import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../database/prisma.service';

/** A game's secret dice seed. It never changes, so it is read from the database once per process. */
@Injectable()
export class GameSecrets {
  private readonly seeds = new Map<string, string>();

  constructor(private readonly prisma: PrismaService) {}

  async seedOf(gameId: string): Promise<string> {
    const known = this.seeds.get(gameId);
    if (known) return known;
    const row = await this.prisma.gameSecret.findUnique({ where: { gameId } });
    if (!row) throw new Error(`game ${gameId} has no dice seed`);
    if (this.seeds.size > 10_000) this.seeds.clear();
    this.seeds.set(gameId, row.seed);
    return row.seed;
  }
}
