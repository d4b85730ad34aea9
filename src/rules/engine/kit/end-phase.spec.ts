import { buildState } from '../../testing/prestate';
import { testScenario } from '../../testing/scenario-files';
import { testSystem } from '../../testing/test-system';

/** `{ orders, endPhase }`: a phase sent whole ends with its one submission, whatever endPhase says. */
describe('endPhase on a phase sent whole', () => {
  const state = buildState(testScenario(), { phase: 'a-move', units: [] });

  it('accepts the list alone, or endPhase true, as the whole phase', () => {
    for (const orders of [[], { orders: [] }, { orders: [], endPhase: true }]) {
      expect(testSystem.parse(state, 'A', { kind: 'orders', orders })).toMatchObject({ ok: true, value: { endsPhase: true } });
    }
  });

  it('refuses endPhase false, which asks to send more of a phase that ends with this submission', () => {
    const p = testSystem.parse(state, 'A', { kind: 'orders', orders: { orders: [], endPhase: false } });
    expect(p).toMatchObject({ ok: false, violations: [{ code: 'input/malformed', message: expect.stringContaining('endPhase false is only for a phase sent in parts') }] });
  });
});
