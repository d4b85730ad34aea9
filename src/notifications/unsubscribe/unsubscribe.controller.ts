import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import { BadInputError } from '../../common/errors';
import { NotificationsService } from '../preferences/notifications.service';
import { escapeHtml } from '../templates/text';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/**
 * The links in every mail. GET only shows a confirmation button, because mail scanners open
 * links; POST unsubscribes, which is also what a mail client sends for RFC 8058's
 * "List-Unsubscribe-Post: List-Unsubscribe=One-Click".
 */
@ApiTags('notifications')
@Controller('api/v1/notifications')
export class UnsubscribeController {
  constructor(
    private readonly tokens: UnsubscribeTokens,
    private readonly preferences: NotificationsService,
  ) {}

  @Get('unsubscribe')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  // A page with a button: another site must not frame it and have it clicked (clickjacking).
  @Header('X-Frame-Options', 'DENY')
  @Header('Content-Security-Policy', "frame-ancestors 'none'")
  @ApiProduces('text/html')
  @ApiOkResponse({ type: String, description: 'An HTML page with one button that sends the POST below. Opening the link changes nothing.' })
  @ApiOperation({ summary: "The page a mail's unsubscribe link opens. No API token: the link's token says whose mail." })
  @ApiQuery({ name: 'token', type: String, description: 'The token of the link in the mail (it names the player, and the game when the link is for one game).' })
  @ApiBadRequestResponse({ description: 'notifications/invalid_unsubscribe_token: the link is damaged or was not made by this server.' })
  confirm(@Query('token') token: unknown): string {
    const scope = this.read(token);
    const what = scope.gameId ? 'mail about this game' : 'all mail from Fieldpost';
    return [
      '<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribe</title></head><body style="font-family:sans-serif">',
      `<p>Stop ${what}?</p>`,
      `<form method="post" action="?token=${escapeHtml(encodeURIComponent(String(token)))}"><button type="submit">Unsubscribe</button></form>`,
      '</body></html>',
    ].join('\n');
  }

  @Post('unsubscribe')
  @HttpCode(200)
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @ApiProduces('text/plain')
  @ApiOkResponse({ type: String, description: 'A sentence saying what mail stops. Sending it again changes nothing.' })
  @ApiOperation({ summary: 'Stops mail: about one game, or all of it, as the link says. Also the target of RFC 8058 one-click unsubscribe. No API token.' })
  @ApiQuery({ name: 'token', type: String, description: 'The token of the link in the mail (it names the player, and the game when the link is for one game).' })
  @ApiBadRequestResponse({ description: 'notifications/invalid_unsubscribe_token: the link is damaged or was not made by this server.' })
  async unsubscribe(@Query('token') token: unknown): Promise<string> {
    const scope = this.read(token);
    await this.preferences.unsubscribe(scope);
    return scope.gameId ? 'You will get no more mail about this game.\n' : 'You will get no more mail from Fieldpost.\n';
  }

  private read(token: unknown) {
    const refuse = (message: string) => new BadInputError('notifications/invalid_unsubscribe_token', message, { field: 'token' });
    if (Array.isArray(token)) throw refuse('token was given more than once: send it once.');
    const scope = typeof token === 'string' ? this.tokens.read(token) : null;
    if (!scope) throw refuse('This unsubscribe link is not valid.');
    return scope;
  }
}
