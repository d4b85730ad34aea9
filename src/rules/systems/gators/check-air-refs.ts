import { airOps } from './air-data';
import { Refs } from './check-refs';
import { gatorsData } from './data';

/** The ids named by scenario.json `options` and the air sections (data.ts, air-data.ts). */
export function checkAirRefs(r: Refs): void {
  const d = gatorsData(r.s);
  r.side(['options', 'landingSide'], d.options.landingSide);
  r.side(['options', 'defendingSide'], d.options.defendingSide);
  if (d.options.landingSide === d.options.defendingSide) r.bad(['options', 'defendingSide'], `the landing side "${d.options.landingSide}" cannot also defend`);

  const setup = ['combat', 'setup'];
  for (const key of ['airborneTags', 'assignTags', 'mainShipTags', 'armedOffMainShipTags'] as const) r.tags([...setup, key], d.setup[key]);
  // Both limits need aircraft to be armed at setup, which only the air-attack module does.
  if (!r.s.manifest.modules.includes('air-attack'))
    for (const key of ['airborneTags', 'armedOffMainShipTags'] as const)
      if (d.setup[key].length > 0) r.bad([...setup, key], `needs the "air-attack" module (arming at setup), which scenario.json modules does not list`);

  const aa = ['combat', 'airAttack'];
  for (const [id, m] of Object.entries(d.airAttack.markers)) {
    r.targetClass([...aa, 'markers', id, 'targetClass'], m.targetClass);
    r.tags([...aa, 'markers', id, 'targetTags'], m.targetTags ?? []);
  }
  const marker = (path: readonly PropertyKey[], m: string) => {
    if (!Object.hasOwn(d.airAttack.markers, m)) r.bad(path, `"${m}" is not a marker of combat.airAttack.markers`);
  };
  for (const [type, lo] of Object.entries(d.airAttack.loadouts)) {
    r.unitType([...aa, 'loadouts', type], type);
    lo.slots.forEach((slot, i) => slot.forEach((m, j) => marker([...aa, 'loadouts', type, 'slots', i, j], m)));
  }

  const b = d.breakdown;
  if (b !== null) {
    const p = ['combat', 'breakdown'];
    b.results.forEach((row, i) => {
      r.rolls([...p, 'results', i, 'rolls'], row.rolls, b.die);
      row.broken.forEach((x, j) => r.tags([...p, 'results', i, 'broken', j, 'tags'], x.tags));
    });
    // The roll is made on the whole die: a value with no row would stop the game (breakdown.ts).
    for (let roll = 1; roll <= b.die; roll++)
      if (!b.results.some((row) => row.rolls.includes(roll))) r.bad([...p, 'results'], `no result for a roll of ${roll} on the ${b.die}-sided die`);
    r.tags([...p, 'recordHexOf'], b.recordHexOf);
  }

  for (const [from, to] of Object.entries(d.antiLanding.results)) {
    r.result(['combat', 'antiLanding', 'results', from], from);
    if (to !== 'landing-fails') r.result(['combat', 'antiLanding', 'results', from], to);
  }

  const o = airOps(r.s);
  const p = ['combat', 'airOps'];
  for (const key of ['launchable', 'recoverable', 'recoverAfloat', 'passengerTags', 'hersTags', 'lvsTags', 'hersCarrierTags', 'fuelTags', 'captureTags', 'activateTags'] as const)
    r.tags([...p, key], o[key]);
  o.craftLaunch.forEach((c, i) => {
    r.tags([...p, 'craftLaunch', i, 'unit'], c.unit);
    r.tags([...p, 'craftLaunch', i, 'from'], c.from);
  });
  o.launchAfloat.forEach((c, i) => r.tags([...p, 'launchAfloat', i, 'unit'], c.unit));
  o.onlyShips.forEach((c, i) => {
    r.tags([...p, 'onlyShips', i, 'unit'], c.unit);
    r.tags([...p, 'onlyShips', i, 'ship'], c.ship);
  });
  o.heavyMarkers.forEach((m, j) => marker([...p, 'heavyMarkers', j], m));
  r.targetClass([...p, 'passengerTargetClass'], o.passengerTargetClass);
  r.targetClass([...p, 'landedTargetClass'], o.landedTargetClass);
  r.tags([...p, 'landedInCapital'], o.landedInCapital);
  r.terrain([...p, 'hersTerrain'], o.hersTerrain);
  r.overlays([...p, 'hersNotInOverlays'], o.hersNotInOverlays);
  r.column([...p, 'explosionColumn'], o.explosionColumn);
}
