import type { NotificationContent, NotificationIntent } from '../../src/notifications/notification-intent';
import { isolatedDatabase } from '../support/isolated-database';
import { content, discordEndpoint, player, webhookEndpoint } from './support/fixtures';
import { FakeClock, harness, notificationsConfig } from './support/harness';
import { httpReceiver, HttpReceiver, smtpReceiver, SmtpReceiver } from './support/receivers';

/**
 * A two-sided game as the games module holds it: what Blue may see, and Red's secrets. Two
 * fixtures differ only in Red's secrets; everything Blue is sent must be byte-identical.
 */
interface GameFixture {
  visible: { redMoves: number; redAttack: string; turn: number };
  redSecrets: { hiddenUnits: string[]; plannedOrders: string[]; diceSeed: string; email: string; timeZone: string; webhookSecret: string; quietHours: { start: string; end: string } };
}

const visible = { redMoves: 2, redAttack: '0507: D1', turn: 4 };
const fixtureA: GameFixture = {
  visible,
  redSecrets: {
    hiddenUnits: ['3/7 Inf at 0912 (concealed)', 'HQ at 1011'],
    plannedOrders: ['ambush at 0608'],
    diceSeed: 'seed-aaaaaaaaaaaaaaaa',
    email: 'red-one@players.test',
    timeZone: 'Asia/Tokyo',
    webhookSecret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'),
    quietHours: { start: '22:00', end: '07:00' },
  },
};
const fixtureB: GameFixture = {
  visible,
  redSecrets: {
    hiddenUnits: ['1/2 Armor at 0303 (concealed)'],
    plannedOrders: ['retreat to 0101', 'blow bridge 0505'],
    diceSeed: 'seed-bbbbbbbbbbbbbbbb',
    email: 'red-two@players.test',
    timeZone: 'America/Los_Angeles',
    webhookSecret: 'whsec_' + Buffer.alloc(32, 2).toString('base64'),
    quietHours: { start: '01:00', end: '02:00' },
  },
};

/** Each side's content from that side's view, as the games module builds it. */
function contentFor(side: 'blue' | 'red', f: GameFixture): NotificationContent {
  const whoseTurn = [{ side: 'blue', sideName: 'Blue', playerName: 'Alice' }];
  return side === 'blue'
    ? content({ gameId: 'g-leak', turn: f.visible.turn, whoseTurn, yourTurn: true, happened: [`Red moved ${f.visible.redMoves} units.`, `Red attacked ${f.visible.redAttack}.`] })
    : content({ gameId: 'g-leak', turn: f.visible.turn, whoseTurn, yourTurn: false, happened: f.redSecrets.plannedOrders.map((o) => `You ordered: ${o}.`).concat(f.redSecrets.hiddenUnits) });
}

function intentsFor(f: GameFixture): NotificationIntent[] {
  return (['blue', 'red'] as const).map((side) => ({
    id: `g-leak:9:your_turn:${side}-player`,
    kind: 'your_turn',
    gameId: 'g-leak',
    playerId: `${side}-player`,
    side,
    gameVersion: 9,
    content: contentFor(side, f),
  }));
}

describe('no leaks: what a side is sent does not depend on the opponent secrets', () => {
  let smtp: SmtpReceiver;
  let blueHook: HttpReceiver;
  let blueDiscord: HttpReceiver;
  let redHook: HttpReceiver;

  beforeAll(async () => {
    smtp = await smtpReceiver();
    blueHook = await httpReceiver();
    blueDiscord = await httpReceiver(undefined, (_h, body) => body);
    redHook = await httpReceiver();
  });
  afterAll(async () => {
    for (const r of [blueHook, blueDiscord, redHook]) await r?.close();
    await smtp?.close();
  });

  /** Plays one fixture in a database of its own, with the same ids and the same clock. */
  async function deliverAll(f: GameFixture) {
    const db = await isolatedDatabase('leak');
    const prisma = db.prisma();
    const clock = new FakeClock(Date.parse('2026-12-01T12:00:00Z'));
    const h = harness(prisma, notificationsConfig(db.url, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) }), { clock });
    try {
      await player(prisma, { id: 'blue-player', email: 'blue@players.test', displayName: 'Alice', timeZone: 'Europe/Berlin' });
      await player(prisma, { id: 'red-player', email: f.redSecrets.email, displayName: 'Bob', timeZone: f.redSecrets.timeZone });
      await prisma.gameSecret.create({ data: { gameId: 'g-leak', seed: f.redSecrets.diceSeed } });
      await webhookEndpoint(prisma, 'blue-player', blueHook.url, 'whsec_' + Buffer.alloc(32, 9).toString('base64'));
      await prisma.notificationEndpoint.update({ where: { id: (await prisma.notificationEndpoint.findFirstOrThrow({ where: { playerId: 'blue-player' } })).id }, data: { id: 'ep-blue-hook' } });
      await discordEndpoint(prisma, 'blue-player', blueDiscord.url);
      await prisma.notificationEndpoint.updateMany({ where: { playerId: 'blue-player', kind: 'discord' }, data: { id: 'ep-blue-discord' } });
      await webhookEndpoint(prisma, 'red-player', redHook.url, f.redSecrets.webhookSecret);
      await h.preferences.setPreferences('red-player', { quietHours: f.redSecrets.quietHours });
      const mailsBefore = smtp.mails.length;
      const [hookBefore, discordBefore] = [blueHook.requests.length, blueDiscord.requests.length];
      await h.enqueue(intentsFor(f));
      await h.worker.drain();
      const mail = smtp.mails.slice(mailsBefore).filter((m) => m.envelopeTo.includes('blue@players.test'));
      expect(mail).toHaveLength(1);
      const m = mail[0]!.mail;
      const header = (name: string) => String(m.headers.get(name) ?? '');
      return {
        email: { subject: m.subject, text: m.text, html: m.html, messageId: m.messageId, from: m.from?.text, to: m.to, notification: header('x-fieldpost-notification-id'), unsubscribe: mail[0]!.raw.match(/^List-Unsubscribe: .*$/m)?.[0] },
        webhook: blueHook.requests.slice(hookBefore).map((r) => ({ body: r.body, id: r.headers['webhook-id'], timestamp: r.headers['webhook-timestamp'], signature: r.headers['webhook-signature'] })),
        discord: blueDiscord.requests.slice(discordBefore).map((r) => r.body),
      };
    } finally {
      await h.close();
      await db.drop();
    }
  }

  it('sends Blue byte-identical mail, webhook and Discord payloads for both fixtures', async () => {
    const a = await deliverAll(fixtureA);
    const b = await deliverAll(fixtureB);
    expect(a.webhook).toHaveLength(1);
    expect(a.discord).toHaveLength(1);
    expect(b).toEqual(a);

    const everything = JSON.stringify(a);
    for (const secret of [...Object.values(fixtureA.redSecrets).flat(), ...Object.values(fixtureB.redSecrets).flat()]) {
      const text = typeof secret === 'string' ? secret : JSON.stringify(secret);
      expect(everything).not.toContain(text);
    }
    for (const word of ['Tokyo', 'Los_Angeles', 'red-one', 'red-two', 'ambush', 'concealed']) expect(everything).not.toContain(word);
    // Red got its own content, on its own endpoint only.
    expect(redHook.requests.map((r) => JSON.parse(r.body).data.side)).toEqual(['red', 'red']);
  });
});
