import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { BadInputError } from '../../common/errors';
import { NotificationsService } from '../preferences/notifications.service';
import { escapeHtml } from '../templates/text';
import { UnsubscribeTokens } from './unsubscribe-tokens';

/**
 * The links in every mail. GET only shows a confirmation button, because mail scanners open
 * links; POST unsubscribes, which is also what a mail client sends for RFC 8058's
 * "List-Unsubscribe-Post: List-Unsubscribe=One-Click".
 */
@Controller('api/v1/notifications')
export class UnsubscribeController {
  constructor(
    private readonly tokens: UnsubscribeTokens,
    private readonly preferences: NotificationsService,
  ) {}

  @Get('unsubscribe')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
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
  async unsubscribe(@Query('token') token: unknown): Promise<string> {
    const scope = this.read(token);
    await this.preferences.unsubscribe(scope);
    return scope.gameId ? 'You will get no more mail about this game.\n' : 'You will get no more mail from Fieldpost.\n';
  }

  private read(token: unknown) {
    const scope = typeof token === 'string' ? this.tokens.read(token) : null;
    if (!scope) throw new BadInputError('notifications/invalid_unsubscribe_token', 'This unsubscribe link is not valid.');
    return scope;
  }
}
