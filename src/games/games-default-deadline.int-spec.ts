import { gamesHarness } from '../../test/support/games-harness';
import { ConfigError, loadConfig } from '../config/config.schema';

// DEFAULT_DEADLINE_HOURS stands in for a game's own deadlineHours, so a value the configuration
// lets a server start with must be one a game accepts: else every game created without its own
// deadline is refused, blaming a field its creator never sent.
describe('DEFAULT_DEADLINE_HOURS (service layer)', () => {
  const candidates = ['0.5', '1', '72', '720', '1000', '1440'];
  const refusal = (hours: string): ConfigError | null => {
    try {
      loadConfig({ DEFAULT_DEADLINE_HOURS: hours });
      return null;
    } catch (err) {
      return err as ConfigError;
    }
  };
  const accepted = candidates.filter((hours) => refusal(hours) === null);

  it('a value the server refuses stops it with a message naming the variable', () => {
    const refused = candidates.filter((hours) => !accepted.includes(hours));
    expect(refused.map((hours) => refusal(hours)!.problems.map((p) => p.variable))).toEqual(refused.map(() => ['DEFAULT_DEADLINE_HOURS']));
  });

  it.each(accepted)('a server started with %s creates games with it as their deadline', async (hours) => {
    const h = await gamesHarness({ env: { DEFAULT_DEADLINE_HOURS: hours } });
    try {
      const org = await h.player('Org');
      const { gameId } = await h.create.execute({ scenarioId: 'kernel-test' }, org);
      expect((await h.loader.load(gameId)).state.options.deadlineHours).toBe(Number(hours));
    } finally {
      await h.close();
    }
  });
});
