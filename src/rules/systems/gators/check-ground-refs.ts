import { Refs } from './check-refs';
import { groundData } from './ground-data';

/** The ids named by the ground sections (ground-data.ts). */
export function checkGroundRefs(r: Refs): void {
  const g = groundData(r.s);
  const c = (name: string, ...rest: PropertyKey[]) => ['combat', name, ...rest];
  r.tags(c('squads', 'squadTags'), g.squads.squadTags);
  r.tags(c('squads', 'commandTags'), g.squads.commandTags);
  r.tags(c('squads', 'splitTags'), g.squads.splitTags);

  r.terrain(c('camouflage', 'keepInTerrain'), g.camouflage.keepInTerrain);
  r.tags(c('camouflage', 'uncoverTags'), g.camouflage.uncoverTags);

  r.tags(c('guerrillas', 'tags'), g.guerrillas.tags);
  r.tags(c('guerrillas', 'waterTags'), g.guerrillas.waterTags);
  r.roll(c('guerrillas', 'need'), g.guerrillas.need, g.guerrillas.die);
  r.roll(c('guerrillas', 'needWithWater'), g.guerrillas.needWithWater, g.guerrillas.die);
  // The counters wait in this off-map box: a name no unit starts in would raise none (the written value only).
  if (r.written(c('guerrillas', 'pool')) && !r.s.oob.units.some((u) => 'box' in u.at && u.at.box === g.guerrillas.pool))
    r.bad(c('guerrillas', 'pool'), `no unit of oob.json starts in box "${g.guerrillas.pool}"`);

  r.tags(c('medics', 'tags'), g.medics.tags);
  r.tags(c('medics', 'surrenderTags'), g.medics.surrenderTags);
  r.tags(c('medics', 'hostageTakerTags'), g.medics.hostageTakerTags);
  r.rolls(c('medics', 'rolls'), g.medics.rolls, g.medics.die);
  r.result(c('medics', 'result'), g.medics.result);

  const d = g.debris;
  for (const key of ['blocksTags', 'bridgeBlocksTags', 'removerTags', 'clearerTags', 'leftByTags'] as const) r.tags(c('debris', key), d[key]);
  r.tags(c('debris', 'trap', 'victimTags'), d.trap.victimTags);
  r.tags(c('debris', 'trap', 'immuneTags'), d.trap.immuneTags);
  r.rolls(c('debris', 'trap', 'rolls'), d.trap.rolls);
  r.column(c('debris', 'trap', 'column'), d.trap.column);

  r.tags(c('sabotage', 'unitTags'), g.sabotage.unitTags);
  g.sabotage.targets.forEach((t, i) => {
    r.tags(c('sabotage', 'targets', i, 'tags'), t.tags);
    r.column(c('sabotage', 'targets', i, 'column'), t.column);
  });
  r.tags(c('sabotage', 'aircraft', 'tags'), g.sabotage.aircraft.tags);
  r.column(c('sabotage', 'aircraft', 'column'), g.sabotage.aircraft.column);

  r.tags(c('bombardment', 'artilleryTags'), g.bombardment.artilleryTags);
  r.tags(c('bombardment', 'spotterTags'), g.bombardment.spotterTags);
  for (const key of ['vehicleTags', 'unitTags', 'exceptTags'] as const) r.tags(c('commandBonus', key), g.commandBonus[key]);

  r.tags(c('recon', 'teamTags'), g.recon.teamTags);
  r.tags(c('recon', 'helperTags'), g.recon.helperTags);
  r.terrain(c('recon', 'notInTerrain'), g.recon.notInTerrain);
  r.overlays(c('recon', 'notInOverlays'), g.recon.notInOverlays);

  g.cargoFire.carriers.forEach((k, i) => {
    r.tags(c('cargoFire', 'carriers', i, 'tags'), k.tags);
    r.tags(c('cargoFire', 'carriers', i, 'exceptTags'), k.exceptTags);
  });

  r.tags(c('sniper', 'unitTags'), g.sniper.unitTags);
  // sniper.targetTags is not checked: GT-2.9 says a scenario may have no single-person counters.
  for (const [range, need] of Object.entries(g.sniper.hitFrom)) {
    if (!/^[1-9][0-9]*$/.test(range)) r.bad(c('sniper', 'hitFrom', range), `"${range}" is not a range in hexes`);
    r.roll(c('sniper', 'hitFrom', range), need, g.sniper.die);
  }
}
