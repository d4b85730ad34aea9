import { randomUUID } from 'node:crypto';
import { visibleTextProblem } from '../common/visible-text';
import { Injectable } from '@nestjs/common';
import { BadInputError, NotFoundError } from '../common/errors';
import { charCount } from '../common/text-length';
import { PrismaService } from '../database/prisma.service';
import type { PlayerView } from './auth.types';

export interface NewPlayer {
  email: string;
  displayName?: string | undefined;
  timeZone?: string | undefined;
}

// A plain address: dot-atom local part, host names of letters, digits and inner hyphens. The
// looser forms the mail standards allow (quoted or commented local parts, lists, display names,
// address literals) are where a send goes somewhere else, or nowhere: "x,victim@example.org" was
// a player of its own that mailed victim@example.org past that address's hourly limit.
const ATOM = "[a-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const EMAIL = new RegExp(`^(?=[^@]{1,64}@)${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`);

/** Players' accounts: found by email, made on first sign-in. */
@Injectable()
export class PlayersService {
  constructor(private readonly prisma: PrismaService) {}

  /** The player with this email, created (with the given name and time zone) if new. */
  async findOrCreate(input: NewPlayer): Promise<{ player: PlayerView; created: boolean }> {
    const { email, displayName: name, timeZone: tz } = checkNewPlayer(input);
    const existing = await this.prisma.player.findUnique({ where: { email } });
    if (existing) return { player: existing, created: false };
    // Not the address's local part: opponents read the name, and it would tell them the address.
    const displayName = name ?? `Player ${randomUUID().slice(0, 6)}`;
    const timeZone = tz ?? 'UTC';
    // ON CONFLICT DO NOTHING: Prisma's upsert reads, then inserts, and of requests for a new
    // address sent at once all but the first failed on the unique email (a 500).
    const { count } = await this.prisma.player.createMany({ data: [{ id: `player_${randomUUID().replace(/-/g, '')}`, email, displayName, timeZone }], skipDuplicates: true });
    return { player: await this.prisma.player.findUniqueOrThrow({ where: { email } }), created: count === 1 };
  }

  /** Changes the caller's name or time zone (at least one), checked as at sign-up; says whether the time zone moved. */
  async update(playerId: string, input: { displayName?: string | null | undefined; timeZone?: string | null | undefined }): Promise<{ player: PlayerView; timeZoneChanged: boolean }> {
    const data = {
      ...(input.displayName != null ? { displayName: checkDisplayName(input.displayName) } : {}),
      ...(input.timeZone != null ? { timeZone: checkTimeZone(input.timeZone) } : {}),
    };
    if (Object.keys(data).length === 0) throw new BadInputError('request/invalid', 'Give displayName, timeZone or both: there is nothing else to change.', { field: 'displayName' });
    const before = await this.get(playerId);
    const player = await this.prisma.player.update({ where: { id: playerId }, data });
    return { player, timeZoneChanged: player.timeZone !== before.timeZone };
  }

  async get(playerId: string): Promise<PlayerView> {
    const row = await this.prisma.player.findUnique({ where: { id: playerId } });
    if (!row) throw new NotFoundError('player/not_found', 'No such player.');
    return row;
  }
}

/**
 * The whole of a sign-up, checked before anything else is decided: a bad time zone is refused
 * for a known address too, so that the answer does not tell which addresses play here.
 */
export function checkNewPlayer(input: NewPlayer): NewPlayer {
  return {
    email: normaliseEmail(input.email),
    displayName: input.displayName === undefined ? undefined : checkDisplayName(input.displayName),
    timeZone: input.timeZone === undefined ? undefined : checkTimeZone(input.timeZone),
  };
}

export function normaliseEmail(raw: string): string {
  const email = String(raw ?? '').trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new BadInputError('auth/invalid_email', 'email must be an email address.', { field: 'email' });
  return email;
}

function checkDisplayName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '' || charCount(name) > 60) throw new BadInputError('auth/invalid_display_name', 'displayName must be 1 to 60 characters.', { field: 'displayName' });
  const problem = visibleTextProblem(name);
  if (problem) throw new BadInputError('auth/invalid_display_name', `displayName ${problem}.`, { field: 'displayName' });
  return name;
}

/**
 * The zone as named, in the case its IANA name has: Intl takes "europe/berlin", which clients' zone
 * libraries need not. Only the case: Intl would also rename a zone ("Europe/Kyiv" to "Europe/Kiev").
 */
function checkTimeZone(tz: string): string {
  try {
    const resolved = new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone;
    return resolved.toLowerCase() === tz.toLowerCase() ? resolved : tz;
  } catch {
    throw new BadInputError('auth/invalid_time_zone', `timeZone "${tz}" is not an IANA time zone such as Europe/Berlin.`, { field: 'timeZone' });
  }
}
