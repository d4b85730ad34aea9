import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { NotFoundError } from '../../common/errors';
import { Game } from '../games/game.model';
import { GamesApiService } from '../games/games-api.service';
import { connection, ConnectionType, PageArgs } from '../graphql/pagination';
import { PlayerId } from '../http/principal';
import type { InvitationRecord as DomainRecord } from '../../games/commands/invitations.handler';
import { Invitation, InvitationKind, InvitationRecord, InviteInput, JoinResult, OpenChallenge } from './invitation.model';

const OpenChallengeConnection = ConnectionType(OpenChallenge, 'OpenChallenge', 'open challenge');
const InvitationRecordConnection = ConnectionType(InvitationRecord, 'InvitationRecord', 'invitation');

/** Invitations (tokens and open challenges) and joining a game with one. */
@Resolver(() => Invitation)
export class InvitationsResolver {
  constructor(private readonly games: GamesApiService) {}

  @Mutation(() => Invitation, { description: 'Offers an open seat of your game, by a single-use token or as an open challenge.' })
  async invite(@Args('input', { description: 'The invitation.' }) input: InviteInput, @PlayerId() playerId: string): Promise<Invitation> {
    const inv = await this.games.invite(input.gameId, input.side, input.kind, playerId, input.expiresInHours ?? undefined);
    return { id: inv.invitationId, gameId: inv.gameId, side: inv.side, kind: inv.kind as InvitationKind, token: inv.token, expiresAt: inv.expiresAt ? new Date(inv.expiresAt) : null };
  }

  @Query(() => InvitationRecordConnection, { description: "Your game's invitations, newest first (those made in the same millisecond by id): open, used or ended. For its organiser and seated players." })
  async gameInvitations(@Args('gameId', { type: () => ID, description: 'Your game.' }) gameId: string, @Args() page: PageArgs, @PlayerId() playerId: string) {
    const p = await this.games.gameInvitations(gameId, playerId, page.first, page.after);
    return connection(p.items.map(toRecord), p.cursors, p.hasMore);
  }

  @Mutation(() => InvitationRecord, { description: 'Withdraws an invitation of your game at once; withdrawing an ended one changes nothing, a used one is refused (invitation/used).' })
  async withdrawInvitation(
    @Args('gameId', { type: () => ID, description: 'Your game.' }) gameId: string,
    @Args('invitationId', { type: () => ID, description: 'The invitation.' }) invitationId: string,
    @PlayerId() playerId: string,
  ): Promise<InvitationRecord> {
    return toRecord(await this.games.withdrawInvitation(gameId, invitationId, playerId));
  }

  @Query(() => OpenChallengeConnection, { description: 'Open challenges anyone may accept, newest first.' })
  async openChallenges(@Args() page: PageArgs, @PlayerId() _playerId: string) {
    const p = await this.games.openChallenges(page.first, page.after);
    const items: OpenChallenge[] = p.items.map(({ invitationId, ...rest }) => ({ id: invitationId, ...rest }));
    return connection(items, p.cursors, p.hasMore);
  }

  @Mutation(() => JoinResult, { description: 'Takes a seat: with an invitation token, or the id of an open challenge.' })
  joinGame(
    @Args('token', { type: () => String, nullable: true, description: 'An invitation token.' }) token: string | null,
    @Args('invitationId', { type: () => ID, nullable: true, description: 'The id of an open challenge.' }) invitationId: string | null,
    @PlayerId() playerId: string,
  ): Promise<JoinResult> {
    return this.games.join({ token, invitationId }, playerId);
  }
}

@Resolver(() => JoinResult)
export class JoinResultResolver {
  constructor(private readonly games: GamesApiService) {}

  @ResolveField(() => Game, { description: 'The game joined, as your side sees it.' })
  game(@Parent() r: JoinResult, @PlayerId() playerId: string): Promise<Game> {
    return this.games.game(r.gameId, playerId);
  }
}

@Resolver(() => OpenChallenge)
export class OpenChallengeResolver {
  constructor(private readonly games: GamesApiService) {}

  @ResolveField(() => Game, { nullable: true, description: 'The game, when you may see it (you hold a seat, or it allows spectators); null otherwise.' })
  async game(@Parent() c: OpenChallenge, @PlayerId() playerId: string): Promise<Game | null> {
    try {
      return await this.games.game(c.gameId, playerId);
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
  }
}

function toRecord(r: DomainRecord): InvitationRecord {
  return { id: r.invitationId, gameId: r.gameId, side: r.side, kind: r.kind as InvitationKind, status: r.status, createdAt: r.createdAt, expiresAt: r.expiresAt, usedAt: r.usedAt };
}
