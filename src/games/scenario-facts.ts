import type { GameSystem } from '../rules/engine/types';
import type { Scenario } from '../rules/model/scenario';
import type { GameEnvelope } from './game-envelope';

/** What players read of a scenario: the same for one on offer and for the one a game recorded. */
export interface ScenarioFacts {
  id: string;
  /** Changes whenever the scenario's data changes (a hash of its files), so exports name exactly what was played. */
  version: string;
  name: string;
  description: string;
  systemId: string;
  sides: Array<{ id: string; name: string }>;
  turns: number;
}

export function scenarioFacts(scenario: Scenario, version: string, systemId: string): ScenarioFacts {
  const m = scenario.manifest;
  return {
    id: m.id,
    version,
    name: m.name,
    description: m.description ?? '',
    systemId,
    sides: m.sides.map((s) => ({ id: s.id, name: s.name })),
    turns: scenario.turns.turns,
  };
}

/** A game's own scenario: the data its first rules event recorded, which its rules play on. */
export interface GameScenario extends ScenarioFacts {
  data: Scenario;
  /**
   * A read that carries this is compared and logged as text (the leak tests compare what each
   * side reads): it names its scenario there, not the hundreds of kilobytes of data every side
   * has alike.
   */
  toJSON(): { id: string; version: string };
}

/**
 * What a game shows of its scenario (names, map) comes from here, never from the catalog: the
 * scenario on offer under the same id may have changed or gone since the game was created. Null
 * only before the first rules event, inside the commit that creates the game.
 */
export function gameScenario(system: GameSystem, state: GameEnvelope): GameScenario | null {
  if (state.rules === undefined) return null;
  const data = system.scenario(state.rules);
  const facts = scenarioFacts(data, state.scenarioVersion, state.systemId);
  return { ...facts, data, toJSON: () => ({ id: facts.id, version: facts.version }) };
}
