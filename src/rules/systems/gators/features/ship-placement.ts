import { placeOrder } from '../../../engine/orders/place';
import { allUnits } from '../../../engine/queries';
import { setupViolations } from '../../../engine/setup';
import { unitViolation } from '../../../engine/violation';
import { Violation } from '../../../engine/types';
import { GatorsFeature } from '../feature';
import { GatorsExt, GState } from '../ext';

/**
 * GT-4.14: after P2's setup, P1 places its ships on deep water not next to
 * shallow water (setup.json zone p1-sea), the LSD within 3 hexes of the LHD
 * (setup.json constraint); the LPD anywhere in that water. Not onto a hex
 * where P2 has a unit (a "?" marker there is public, so this leaks nothing).
 */
function placement(after: GState, side: string): Violation[] {
  const out = setupViolations(after, side);
  for (const u of allUnits(after)) {
    if (u.side !== side || u.loc.at !== 'hex') continue;
    const hex = u.loc.hex;
    if (allUnits(after).some((e) => e.side !== side && e.loc.at === 'hex' && e.loc.hex === hex))
      out.push(unitViolation('GT-4.14', 'setup/occupied', `${u.id} may not be placed in ${hex}, where the enemy is`, u.id));
  }
  return out;
}

export const shipPlacement: GatorsFeature = {
  id: 'ship-placement',
  rules: ['GT-4.14'],
  phases: {
    'ship-placement': {
      orders: () => [placeOrder<GatorsExt>()],
      validateSubmission: (_before, after, side) => placement(after, side),
    },
  },
};
