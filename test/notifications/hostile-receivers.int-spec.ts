import type { PrismaService } from '../../src/database/prisma.service';
import { discordEndpoint, intent, player, statuses, webhookEndpoint } from './support/fixtures';
import type { Harness } from './support/harness';
import { receiverSuite } from './support/receiver-suite';

describe('receivers that answer with bytes the database cannot store (real HTTP receivers on loopback)', () => {
  const suite = receiverSuite('hostile');
  const { receiver } = suite;
  let prisma: PrismaService;
  let h: Harness;
  beforeAll(() => ({ prisma, h } = suite));

  it('dead-letters a webhook refused with a NUL byte in the answer at once, with the error readable', async () => {
    const r = await receiver(() => ({ status: 400, body: 'bad\u0000request' }));
    const p = await player(prisma);
    await webhookEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-nul' })]);
    await h.worker.drain();

    expect(r.requests).toHaveLength(1);
    expect(await statuses(prisma, p, 'webhook')).toEqual({ dead: 1 });
    const [row] = await prisma.notificationDelivery.findMany({ where: { playerId: p, channel: 'webhook' } });
    expect(row).toMatchObject({ lastStatus: 400, lastError: 'HTTP 400: bad\ufffdrequest', lockedUntil: null });
  });

  it('does the same for a Discord message', async () => {
    const r = await receiver(() => ({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"message":"\u0000Invalid Form Body"}' }), () => 'discord');
    const p = await player(prisma);
    await discordEndpoint(prisma, p, r.url);
    await h.enqueue([intent({ playerId: p, gameId: 'g-nul-discord' })]);
    await h.worker.drain();

    expect(r.requests).toHaveLength(1);
    expect(await statuses(prisma, p, 'discord')).toEqual({ dead: 1 });
  });
});
