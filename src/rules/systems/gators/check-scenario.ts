import { Scenario } from '../../model/scenario';
import { ScenarioIssue, issueList } from '../../model/scenario-error';
import { doc } from '../../model/schema/common';
import { AIR_OPS_SECTION } from './air-data';
import { checkAirRefs } from './check-air-refs';
import { checkCities } from './check-cities';
import { checkCrews } from './check-crews';
import { checkGroundRefs } from './check-ground-refs';
import { Refs } from './check-refs';
import { GATORS_SECTIONS } from './data';
import { GATORS_MODULES } from './features';
import { FIRED_ABOARD } from './features/landing-craft-fire';
import { GROUND_SECTIONS } from './ground-data';
import { Section, sectionIssues } from './sections';

/** Every section Gators! reads beyond the kernel schema (data.ts, ground-data.ts, air-data.ts). */
const SECTIONS: readonly Section<unknown>[] = [...Object.values(GATORS_SECTIONS), ...Object.values(GROUND_SECTIONS), AIR_OPS_SECTION];

/** rules.json `combat` keys Gators! knows: the kernel's odds table, its own sections, documentation. */
const COMBAT_KEYS = new Set(['odds', ...Object.keys(doc), ...SECTIONS.filter((x) => x.file === 'rules.json').map((x) => x.path[1]!)]);

/** The flags Gators! sets that rules.json visibility.seenCargoWhen may name (a name nothing sets would silently never show the cargo). */
const SEEN_WHEN_FLAGS = new Set([FIRED_ABOARD]);

/**
 * The Gators! check of a scenario (SystemSpec.checkScenario), run at load after the generic
 * checks: its sections parse with their strict schemas, `combat` holds no section Gators! does
 * not read, every module names a feature, `visibility.seenCargoWhen` names flags it sets, each city is one group of hexes touching no other
 * (GT-3.16, check-cities.ts), the ids the sections name exist (check-refs.ts), and every small
 * team that may crew a FAV uncovers a "?" in jungle (GT-6L.3, check-crews.ts).
 * Without it these mistakes surfaced at game start, mid-game, or never.
 */
export function checkGatorsScenario(s: Scenario): ScenarioIssue[] {
  const { issues, report } = issueList();
  for (const key of Object.keys(s.rules.combat))
    if (!COMBAT_KEYS.has(key)) report('rules.json', ['combat', key], `"${key}" is not a combat section Gators! reads (${[...COMBAT_KEYS].join(', ')})`);
  // features.ts MODULES: a module id that switches nothing on is a mistake, not a rule left off.
  const modules = new Set(GATORS_MODULES);
  s.manifest.modules.forEach((m, i) => {
    if (!modules.has(m)) report('scenario.json', ['modules', i], `"${m}" is not a Gators! rule module (${[...modules].sort().join(', ')})`);
  });
  (s.rules.visibility.seenCargoWhen ?? []).forEach((flag, i) => {
    if (!SEEN_WHEN_FLAGS.has(flag)) report('rules.json', ['visibility', 'seenCargoWhen', i], `"${flag}" is not a flag Gators! sets (${[...SEEN_WHEN_FLAGS].join(', ')})`);
  });
  checkCities(s, report);
  const shapes = SECTIONS.flatMap((sec) => sectionIssues(s, sec));
  // The ids are read from the parsed sections: only once every one of them parses.
  if (shapes.length > 0) return [...issues, ...shapes];
  const refs = new Refs(s, report);
  checkAirRefs(refs);
  checkGroundRefs(refs);
  checkCrews(s, report);
  return issues;
}
