import { Json, JsonObject } from '../../model/json';
import { parseScenario } from '../../model/parse-scenario';
import { Scenario } from '../../model/scenario';
import { ScenarioError, ScenarioIssue } from '../../model/scenario-error';
import { GameState } from '../../model/state';
import { privateEvent, publicEvent } from '../events';
import { evolve } from '../evolve';
import { currentPhase, phaseInfo } from '../phase-machine';
import { Dice, GameSystem, RulesEvent, SideId, StandingAnswers, Viewer } from '../types';
import { kernelView } from '../view';
import { assertNever } from '../assert-never';
import { scenarioChecker } from './check-scenario';
import { secretsBundled } from './sealed-secrets';
import { Resolution, advance, runOrders } from './runner';
import { parse, validate, validateDraft } from './checks';
import { options, sideOptions } from './options';
import { Submission, SystemSpec } from './types';

/**
 * Builds the contract's GameSystem from a system's spec. The kernel owns the
 * pipeline (parse → validate → resolve → evolve), the phase machine,
 * reactions and standing orders, and view; the spec brings the orders, the
 * phases and the reactions that make the game.
 */
export function defineSystem<X extends Json>(spec: SystemSpec<X>): GameSystem<GameState<X>, Submission> {
  const check = scenarioChecker(spec);
  return {
    id: spec.id,
    checkScenario: check,
    start: (scenario, options) => start(spec, check, scenario, options.sides),
    evolve: (state, event) => evolve(state, event, spec.evolve),
    phase: phaseInfo,
    parse: (state, side, raw) => parse(spec, state, side, raw),
    validate: (state, side, sub) => validate(spec, state, side, sub),
    validateDraft: (state, side, sub) => validateDraft(spec, state, side, sub),
    resolve: (state, side, sub, dice, answers) => resolve(spec, state, side, sub, dice, answers),
    expireReaction: (state, dice, answers) => expire(spec, state, dice, answers),
    view: (state, viewer) => view(spec, state, viewer),
    scenario: (state) => state.scenario,
    options: (state, side, unitId, draft) => options(spec, state, side, unitId, draft),
    sideOptions: (state, side, draft) => sideOptions(spec, state, side, draft),
  };
}

function start<X extends Json>(spec: SystemSpec<X>, check: (s: Scenario) => readonly ScenarioIssue[], input: unknown, sides: SideId[]): RulesEvent[] {
  const scenario = asScenario(input);
  if (scenario.manifest.system !== spec.id) throw new Error(`scenario ${scenario.manifest.id} is for system "${scenario.manifest.system}", not "${spec.id}"`);
  const known = scenario.manifest.sides.map((s) => s.id);
  for (const s of sides) if (!known.includes(s)) throw new Error(`side "${s}" is not a side of scenario ${scenario.manifest.id}`);
  // Normally checked at load already (cached); a scenario handed straight to start is checked here.
  const issues = check(scenario);
  if (issues.length > 0) throw new ScenarioError(`"${scenario.manifest.id}"`, issues);
  const first = publicEvent('GameStarted', { scenario, ext: spec.initialExt(scenario) });
  const r = new Resolution(spec, evolve<X>(undefined, first, spec.evolve), noDice, sides[0] ?? known[0]!);
  advance(r);
  return [first, ...r.events];
}

const noDice: Dice = {
  roll: () => {
    throw new Error('no dice may be rolled while a game is being started');
  },
};

function isScenario(x: unknown): x is Scenario {
  return typeof x === 'object' && x !== null && 'manifest' in x && 'map' in x && 'rules' in x;
}

/** What `start` receives: a parsed scenario, or its raw files to parse. */
export function asScenario(input: unknown): Scenario {
  return isScenario(input) ? input : parseScenario(input as Record<string, unknown>);
}

function resolve<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, side: SideId, sub: Submission, dice: Dice, answers?: StandingAnswers): RulesEvent[] {
  const r = new Resolution(spec, state, dice, side, answers);
  switch (sub.kind) {
    case 'standing-orders':
      r.emit(privateEvent('StandingOrdersSet', { side, orders: sub.orders }, [side], { type: 'StandingOrdersSet', data: { side } }));
      return r.events;
    case 'reaction':
      return continueAfterReaction(r, sub.answer, 'side');
    case 'orders': {
      if (state.phase.mode === 'simultaneous') {
        r.emit(privateEvent('OrdersSealed', { side, orders: sub.orders }, [side], { type: 'OrdersSealed', data: { side } }));
        if (r.state.phase.acting.length > 0) return r.events;
        const def = currentPhase(r.state)!;
        const sealed: Record<SideId, readonly JsonObject[]> = {};
        for (const s of r.state.phase.submitted) sealed[s] = (r.state.sides[s]?.secret.sealed ?? []) as readonly JsonObject[];
        const kind = spec.phases[def.kind]!;
        const opened = r.events.length;
        const before = r.state;
        if (kind.resolveSealed !== undefined) kind.resolveSealed(r, sealed);
        else
          for (const s of r.state.phase.submitted) {
            r.side = s;
            if (!runOrders(r, sealed[s]!, 0, 0, true, undefined, 'sealed')) throw new Error('sealed orders may not stop for a reaction');
          }
        r.rewrite(opened, before, secretsBundled(r.events.slice(opened), Object.keys(sealed)));
        // Applying them opens every side's sealed orders to the others: the submission that did
        // so showed its side the other setups, so it may not be taken back (undo).
        for (let i = opened; i < r.events.length; i++) r.events[i] = { ...r.events[i]!, reveals: true };
        r.side = side;
        kind.afterSealed?.(r);
        advance(r);
        return r.events;
      }
      if (runOrders(r, sub.orders, 0, 0, sub.endsPhase) && sub.endsPhase && r.state.phase.stage !== 'ended') advance(r);
      return r.events;
    }
    default:
      return assertNever(sub, 'submission');
  }
}

function continueAfterReaction<X extends Json>(r: Resolution<X>, answer: Json, by: 'side' | 'expiry', applied?: 'standing-orders' | 'none'): RulesEvent[] {
  const p = r.state.pending;
  if (p === null || p.request === null) return [];
  const req = p.request;
  // `applied` stays out of the redacted form: whether the side had standing orders is its secret.
  const data = { side: req.side, kind: req.kind, answer, by, ...(applied === undefined ? {} : { applied }) };
  r.emit(privateEvent('ReactionAnswered', data, [req.side], { type: 'ReactionAnswered', data: { side: req.side, kind: req.kind, by } }));
  r.emit(publicEvent('ResolutionResumed', { side: p.side }));
  r.side = p.side;
  const orders = p.orders as readonly JsonObject[];
  if (runOrders(r, orders, p.index, p.indexOffset, p.endsPhase, { stage: p.stage, answer }) && p.endsPhase && r.state.phase.stage !== 'ended') advance(r);
  return r.events;
}

function expire<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, dice: Dice, answers?: StandingAnswers): RulesEvent[] {
  const req = state.pending?.request;
  if (!req) return [];
  const kind = spec.reactions?.[req.kind];
  if (kind === undefined) throw new Error(`no reaction kind "${req.kind}"`);
  const r = new Resolution(spec, state, dice, state.pending!.side, answers);
  const standing = r.standingAnswer(kind, req);
  return standing === null ? continueAfterReaction(r, kind.none(state, req), 'expiry', 'none') : continueAfterReaction(r, standing, 'expiry', 'standing-orders');
}

function view<X extends Json>(spec: SystemSpec<X>, state: GameState<X>, viewer: Viewer): unknown {
  const base = kernelView(state, viewer);
  return spec.view === undefined ? base : spec.view(state, viewer, base);
}
