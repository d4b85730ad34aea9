import { oobIds } from '../../engine/initial-state';
import { hasTag } from '../../engine/queries';
import { Scenario, UnitType } from '../../model/scenario';
import { Report } from '../../model/scenario-error';
import { CAMOUFLAGE_MODULE } from './features/camouflage';
import { moduleOn } from './data';
import { groundData } from './ground-data';
import { CREW, NEEDS_CREW } from './queries';

/**
 * GT-6L.3 (a FAV's crew, the scenario README): the teams crewing a FAV on its own move uncover a
 * "?" in jungle (camouflage.ts uncoverNear), which tells the enemy nothing only because every
 * crew uncovers: a FAV moves only crewed (GT-2.20), and its crew is the `small-team` cargo of a
 * `needs-crew` unit (queries.ts crewOf). A small team that could crew one without a tag of
 * `combat.camouflage.uncoverTags` would make the uncovering tell which team is aboard, which is
 * hidden cargo (Q-GT-01). So where camouflage is played, every small team a `needs-crew` type may
 * take aboard (by its tags and side: weight is not weighed, so a team that could never fit is
 * still held to it) or starts the game in (oob.json, which loading rules do not check) must
 * uncover, unless the carrier uncovers by itself.
 */
export function checkCrews(s: Scenario, report: Report): void {
  if (!moduleOn(s, CAMOUFLAGE_MODULE)) return;
  const uncover = groundData(s).camouflage.uncoverTags;
  const types = Object.entries(s.units.types);
  const typeOfUnit = new Map<string, string>();
  for (const e of s.oob.units) for (const id of oobIds(e)) typeOfUnit.set(id, e.type);
  const startsIn = (carrierId: string, teamId: string) => s.oob.units.some((e) => e.type === teamId && 'carrier' in e.at && typeOfUnit.get(e.at.carrier) === carrierId);
  for (const [carrierId, carrier] of types) {
    if (!hasTag(carrier, [NEEDS_CREW]) || hasTag(carrier, uncover)) continue;
    for (const [teamId, team] of types)
      if (hasTag(team, [CREW]) && (mayBoard(carrier, team) || startsIn(carrierId, teamId)) && !hasTag(team, uncover))
        report(
          'units.json',
          ['types', teamId, 'tags'],
          `"${teamId}" may crew "${carrierId}" (GT-2.20) but has none of the tags that uncover a "?" in jungle (rules.json combat.camouflage.uncoverTags: ${uncover.join(', ')}): a FAV's move would tell the enemy whether this team crews it (GT-6L.3)`,
        );
  }
}

/** Whether the carrier's transport takes the team by its tags and side (engine/transport.ts cargoProblem, loadProblem). */
function mayBoard(carrier: UnitType, team: UnitType): boolean {
  const t = carrier.transport;
  if (t === undefined) return false;
  if (carrier.side !== undefined && team.side !== undefined && carrier.side !== team.side) return false;
  return t.accepts === undefined || hasTag(team, t.accepts) || t.allowances.some((a) => hasTag(team, a.cargo));
}
