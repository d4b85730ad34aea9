import { ApiProperty } from '@nestjs/swagger';
import { PageOf } from '../http/page.responses';

export class PlayerDto {
  @ApiProperty({ description: 'Player id.' })
  id!: string;

  @ApiProperty({ description: 'Where sign-in links and notifications go.' })
  email!: string;

  @ApiProperty({ description: 'The name other players see.' })
  displayName!: string;

  @ApiProperty({ description: 'IANA time zone: deadlines and quiet hours are in it.', example: 'Europe/Berlin' })
  timeZone!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the account was made.' })
  createdAt!: string;
}

export class ApiTokenDto {
  @ApiProperty({ description: 'Token id (to revoke it).' })
  id!: string;

  @ApiProperty({ description: 'Your label for it.' })
  name!: string;

  @ApiProperty({ description: 'The token\'s first characters, to tell tokens apart.' })
  prefix!: string;

  @ApiProperty({ type: String, format: 'date-time', description: 'When it was made.' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was last used (to the minute).' })
  lastUsedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was revoked; a revoked token is refused.' })
  revokedAt!: string | null;
}

export const ApiTokenPageDto = PageOf(ApiTokenDto, 'API tokens (revoked ones included)');

export class IssuedApiTokenDto {
  @ApiProperty({ description: 'The token (fp_...): send it as "Authorization: Bearer <token>". Shown this once.' })
  token!: string;

  @ApiProperty({ type: ApiTokenDto, description: 'Its record.' })
  apiToken!: ApiTokenDto;
}

export class MagicLinkSentDto {
  @ApiProperty({ description: 'Always true: the answer does not tell whether the address already had an account.' })
  sent!: boolean;

  @ApiProperty({ type: String, format: 'date-time', description: 'When the link stops working.' })
  expiresAt!: string;
}
