import { join } from 'node:path';
import { loadScenario } from '../../../scenarios/load-scenario';
import { ForcedDice } from '../../dice/forced-dice';
import { RawSubmission } from '../../engine/types';
import { caseSteps } from '../../testing/order-fuzz';
import { BlindStep, secretBlind } from '../../testing/secret-blind';
import { loadCases } from '../../../../test/support/rule-cases';
import { campaign } from './examples';
import { GState } from './ext';
import { GATORS_SPEC, gators } from './index';

const scenario = loadScenario(join(__dirname, '../../../scenarios/gators-unnarstan'));
const seed = Number(process.env.FUZZ_SEED ?? 20261201);

/** Every state of the scripted campaign at which a side submits, with what it submitted. */
function campaignSteps(): BlindStep<GState>[] {
  let state = gators.start(scenario, { sides: ['P1', 'P2'] }).reduce<GState | undefined>((s, e) => gators.evolve(s, e), undefined)!;
  const out: BlindStep<GState>[] = [];
  campaign().steps.forEach((step, k) => {
    const dice = new ForcedDice(step.dice);
    if (step.expire === true) {
      state = gators.expireReaction(state, dice).reduce((s, e) => gators.evolve(s, e), state);
      return;
    }
    const raw = step.submission as RawSubmission;
    out.push({ label: `step ${k} (turn ${step.turn} ${step.phase}, ${step.side})`, state, side: step.side, submission: raw });
    const parsed = gators.parse(state, step.side, raw);
    if (!parsed.ok) throw new Error(`campaign step ${k} is malformed`);
    state = gators.resolve(state, step.side, parsed.value, dice).reduce((s, e) => gators.evolve(s, e), state);
  });
  return out;
}

describe("a side's refused orders and unit options say nothing of what the other side hides", () => {
  const caseStates = () =>
    [...caseSteps({ system: gators, scenario, initialExt: GATORS_SPEC.initialExt }, loadCases(join(__dirname, 'cases')))].map(
      (c): BlindStep<GState> => ({ label: c.file, state: c.state as GState, side: c.side, submission: c.submission }),
    );

  it('answer the same in states the side cannot tell apart: every rule case', () => {
    const r = secretBlind(gators, caseStates(), { seed, broken: Number(process.env.BROKEN ?? 10), maxTwins: Number(process.env.MAX_TWINS ?? 3) });
    expect(r.twins).toBeGreaterThan(300);
    expect(r.probes).toBeGreaterThan(5_000);
    expect(r.leaks).toEqual([]);
  });

  it('answer the same in states the side cannot tell apart: every step of the scripted campaign', () => {
    const r = secretBlind(gators, campaignSteps(), { seed, broken: Number(process.env.BROKEN ?? 20), maxTwins: Number(process.env.MAX_TWINS ?? 3) });
    expect(r.twins).toBeGreaterThan(100);
    expect(r.probes).toBeGreaterThan(10_000);
    expect(r.leaks).toEqual([]);
  });

  it('is a real check: a validation that names where the other side hides its units is caught', () => {
    const leaky: typeof gators = {
      ...gators,
      validate: (state, side, sub) => {
        const hidden = Object.values(state.units).filter((u) => u.side !== side && u.hidden !== undefined && u.loc.at === 'hex');
        const tell = hidden.map((u) => `${u.id}@${u.loc.at === 'hex' ? u.loc.hex : ''}`).sort().join(',');
        return [...gators.validate(state, side, sub), ...(tell === '' ? [] : [{ ruleId: 'leak', code: 'leak', message: tell, orderIndex: null }])];
      },
    };
    const r = secretBlind(leaky, caseStates().slice(0, 200), { seed, broken: 0, maxTwins: Number(process.env.MAX_TWINS ?? 3) });
    expect(r.leaks.length).toBeGreaterThan(0);
  });
});
