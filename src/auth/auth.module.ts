import { Module } from '@nestjs/common';
import { ApiTokensService } from './api-tokens.service';
import { AUTH_CLOCK } from './auth.types';
import { MagicLinkMailer } from './magic-link.mailer';
import { MagicLinksService } from './magic-links.service';
import { PlayersService } from './players.service';
import { TokenHasher } from './token-hasher';

/** Players' accounts, API tokens and sign-in links. Depends on the global config and database modules. */
@Module({
  providers: [{ provide: AUTH_CLOCK, useValue: { now: () => new Date() } }, TokenHasher, PlayersService, ApiTokensService, MagicLinkMailer, MagicLinksService],
  exports: [PlayersService, ApiTokensService, MagicLinksService],
})
export class AuthModule {}
