import { Json } from '../../model/json';
import { Scenario } from '../../model/scenario';
import { GameState } from '../../model/state';
import { evolve } from '../evolve';
import { GameSystem } from '../types';
import { asScenario } from './define-system';

type System<X extends Json, Sub> = GameSystem<GameState<X>, Sub>;

/**
 * A GameSystem whose rules depend on the scenario (the rule modules its scenario.json switches
 * on): every call goes to the system built for the state's scenario. Scenarios with the same
 * `key` share one build, so a game loaded again does not build its rules again.
 */
export function perScenario<X extends Json, Sub>(id: string, key: (s: Scenario) => string, build: (s: Scenario) => System<X, Sub>): System<X, Sub> {
  const byKey = new Map<string, System<X, Sub>>();
  const byScenario = new WeakMap<Scenario, System<X, Sub>>();
  const of = (s: Scenario): System<X, Sub> => {
    let sys = byScenario.get(s);
    if (sys === undefined) {
      const k = key(s);
      sys = byKey.get(k) ?? build(s);
      byKey.set(k, sys);
      byScenario.set(s, sys);
    }
    return sys;
  };
  return {
    id,
    checkScenario: (scenario) => of(scenario).checkScenario(scenario),
    start: (input, options) => {
      const scenario = asScenario(input);
      return of(scenario).start(scenario, options);
    },
    // The first event (GameStarted) is the kernel's own: it needs no system.
    evolve: (state, event) => (state === undefined ? evolve<X>(undefined, event) : of(state.scenario).evolve(state, event)),
    phase: (state) => of(state.scenario).phase(state),
    parse: (state, side, raw) => of(state.scenario).parse(state, side, raw),
    validate: (state, side, sub) => of(state.scenario).validate(state, side, sub),
    validateDraft: (state, side, sub) => of(state.scenario).validateDraft(state, side, sub),
    resolve: (state, side, sub, dice) => of(state.scenario).resolve(state, side, sub, dice),
    expireReaction: (state, dice) => of(state.scenario).expireReaction(state, dice),
    view: (state, viewer) => of(state.scenario).view(state, viewer),
    scenario: (state) => state.scenario,
    options: (state, side, unitId, draft) => of(state.scenario).options(state, side, unitId, draft),
    sideOptions: (state, side, draft) => of(state.scenario).sideOptions(state, side, draft),
  };
}
