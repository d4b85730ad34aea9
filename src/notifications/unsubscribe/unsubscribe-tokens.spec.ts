import { UnsubscribeTokens } from './unsubscribe-tokens';

describe('unsubscribe tokens', () => {
  const tokens = new UnsubscribeTokens('s'.repeat(32), { publicUrl: 'https://fieldpost.test' });

  it('round-trips a scope and builds the link', () => {
    expect(tokens.read(tokens.issue({ playerId: 'p1', gameId: 'g1' }))).toEqual({ playerId: 'p1', gameId: 'g1' });
    expect(tokens.read(tokens.issue({ playerId: 'p1', gameId: null }))).toEqual({ playerId: 'p1', gameId: null });
    expect(tokens.url({ playerId: 'p1', gameId: null })).toMatch(/^https:\/\/fieldpost\.test\/api\/v1\/notifications\/unsubscribe\?token=[\w-]+\.[\w-]+$/);
  });

  it('refuses forged, altered or foreign tokens', () => {
    const token = tokens.issue({ playerId: 'p1', gameId: 'g1' });
    const forged = `${Buffer.from(JSON.stringify(['p2', null])).toString('base64url')}.${token.split('.')[1]}`;
    expect(tokens.read(forged)).toBeNull();
    expect(tokens.read(token.slice(0, -2))).toBeNull();
    expect(tokens.read('garbage')).toBeNull();
    expect(new UnsubscribeTokens('t'.repeat(32), { publicUrl: 'https://x' }).read(token)).toBeNull();
  });
});
