import { UnitOptions } from '../../../engine/types';
import { JsonObject } from '../../../model/json';

/** The one order a client sends for an option (null: an action no order is known for). */
export function orderFor(unit: string, kind: 'move' | 'attack' | 'other', o: unknown): JsonObject | null {
  if (kind === 'move') {
    const m = o as UnitOptions['moves'][number];
    return { kind: 'move', unit, path: m.path, ...(m.with === undefined ? {} : { with: m.with }) };
  }
  if (kind === 'attack') return { kind: 'attack', attackers: [{ unit }], target: (o as UnitOptions['attacks'][number]).targetHex };
  const { action, detail } = o as { action: string; detail: Record<string, string> };
  switch (action) {
    case 'air-strike':
      return { kind: 'air-strike', unit, marker: detail['marker']!, targets: [{ hex: detail['hex']!, markers: 1 }] };
    case 'launch':
      return { kind: 'launch', unit, hex: detail['hex']! };
    case 'recover':
      return { kind: 'recover', unit, ship: detail['ship']! };
    case 'sabotage':
      return { kind: 'sabotage', unit, target: detail['hex']! };
    case 'refill':
      return { kind: 'refill', lvs: unit, hers: detail['hers']! };
    case 'split':
      return { kind: 'split', platoon: unit, to: (o as { detail: { to: JsonObject[] } }).detail.to };
    case 'merge': {
      const d = (o as { detail: { with: string[]; platoon: string } }).detail;
      return { kind: 'merge', squads: [unit, ...d.with], platoon: d.platoon };
    }
    case 'arm':
      return { kind: 'arm', unit, markers: (o as { detail: { markers: string[] } }).detail.markers };
    case 'passenger-fire':
      return { kind: 'passenger-fire', attackers: [{ unit }], target: detail['target']! };
    case 'snipe':
      return { kind: 'snipe', unit, target: detail['target']! };
    case 'leave-debris':
      return { kind: 'leave-debris', unit, hex: detail['hex']! };
    case 'breakdown':
      return { kind: 'breakdown', units: (o as { detail: { units: string[] } }).detail.units };
    case 'stack-order': {
      const d = (o as { detail: { hex: string; units: string[] } }).detail;
      return { kind: 'stack-order', hex: d.hex, units: d.units };
    }
    case 'assign':
      return { kind: 'assign', unit, ship: detail['ship']! };
    case 'place':
    case 'load':
    case 'unload':
    case 'hitch':
    case 'unhitch':
      // Their detail is the order less kind and unit ({hex} or {carrier}, {carrier, mover?, path?}, {hex}, {towers}, {}); the strict schemas refuse anything more.
      return { kind: action, unit, ...(detail as unknown as JsonObject) };
    default:
      return null;
  }
}
