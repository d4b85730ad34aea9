import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { GqlContextType, GqlExecutionContext } from '@nestjs/graphql';
import type { Request } from 'express';
import type { Principal } from '../../auth/auth.types';
import { UnauthenticatedError } from '../../common/errors';

/** What the API middleware attaches to a request: the authenticated caller, or null. */
export interface ApiRequest extends Request {
  principal?: Principal | null;
}

/** The GraphQL context, over HTTP and over graphql-ws alike. */
export interface GqlContext {
  principal: Principal | null;
  req?: unknown;
}

function principalOf(ctx: ExecutionContext): Principal | null {
  if (ctx.getType<GqlContextType>() === 'graphql') return GqlExecutionContext.create(ctx).getContext<GqlContext>().principal ?? null;
  return ctx.switchToHttp().getRequest<ApiRequest>().principal ?? null;
}

/**
 * The calling player's id. Every resolver and controller that reads or changes a game takes
 * it, so none can run without an authenticated caller, and each passes it to the games
 * module, which checks the seat.
 */
export const PlayerId = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const p = principalOf(ctx);
  if (!p) throw new UnauthenticatedError('This needs an API token: send Authorization: Bearer <token>.');
  return p.playerId;
});

/** The whole principal (player and token), for the operations about tokens themselves. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  const p = principalOf(ctx);
  if (!p) throw new UnauthenticatedError('This needs an API token: send Authorization: Bearer <token>.');
  return p;
});
