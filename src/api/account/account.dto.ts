import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

export class CreateTokenDto {
  @ApiProperty({ description: 'Your label for the token (1-100 characters).', example: 'discord bot' })
  @IsString()
  // No @Length here: the service counts it in characters (charCount), for REST and GraphQL alike.
  name!: string;
}

export class MagicLinkDto {
  @ApiProperty({ description: 'Your email address; the account is created on first use.', example: 'alice@example.org' })
  @IsString()
  @Length(3, 254)
  email!: string;

  @ApiPropertyOptional({ description: 'Your name for other players (new accounts), 1-60 characters.' })
  @IsOptional()
  @IsString()
  // No @Length here: the service counts it in characters (charCount), for REST and GraphQL alike.
  displayName?: string;

  @ApiPropertyOptional({ description: 'IANA time zone (new accounts), e.g. Europe/Berlin.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  timeZone?: string;
}

export class RedeemDto {
  @ApiProperty({ description: 'The code from the sign-in mail (fpml_...).' })
  @IsString()
  @Length(1, 200)
  token!: string;

  @ApiPropertyOptional({ description: 'A label for the new API token (1-100 characters).' })
  @IsOptional()
  @IsString()
  // No @Length here: the service counts it in characters (charCount), for REST and GraphQL alike.
  tokenName?: string;
}

export class UpdateProfileDto {
  @ApiPropertyOptional({ description: 'The name other players see, 1-60 characters.' })
  @IsOptional()
  @IsString()
  // No @Length here: the service counts it in characters (charCount), for REST and GraphQL alike.
  displayName?: string;

  @ApiPropertyOptional({ description: 'IANA time zone, e.g. Europe/Berlin: deadlines and quiet hours are read in it, and mail waiting for quiet hours, or a digest for its hour, moves with it.' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  timeZone?: string;
}
