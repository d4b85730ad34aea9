import { SECRETS_APPLIED, SecretsApplied } from '../events';
import { RulesEvent, SideId } from '../types';

/**
 * A sealed phase's events, logged so that their number and order tell no side what another
 * hid. Every event takes a version that all sides count, and a sealed setup is where a side
 * hides most: one event per unit loaded aboard a transport, split, armed or placed under a "?"
 * counted them, and where a concealed placement sat among the placements in sight told which
 * unit it was (a client lists them in the order of battle). So the events some side may not
 * read in full go, in their order, into one SecretOrdersApplied per side that sealed orders,
 * written even when empty, after the events everyone reads (those keep their order); the other
 * sides read only that it was written. Moving them later is sound: what a side keeps to itself
 * in a setup (cargo, markers, notes, the pool of squads) is never what a public event changes.
 */
export function secretsBundled(events: readonly RulesEvent[], sealedSides: readonly SideId[]): RulesEvent[] {
  const open = events.filter((e) => e.visibility.to === 'all' || !sealedSides.includes(ownerOf(e) ?? ''));
  const bundles = sealedSides.map((side) => secretsApplied(side, events.filter((e) => e.visibility.to !== 'all' && ownerOf(e) === side)));
  return [...open, ...bundles];
}

/** `events`, in their order, in one SecretOrdersApplied that only `side` reads; the others read only that it was written. */
export function secretsApplied(side: SideId, events: readonly RulesEvent[]): RulesEvent<typeof SECRETS_APPLIED, SecretsApplied> {
  return {
    type: SECRETS_APPLIED,
    data: { side, events: events.map((e) => ({ type: e.type, data: e.data })) },
    visibility: { to: 'sides', sides: [side], redacted: { type: SECRETS_APPLIED, data: { side } } },
  };
}

/** The one side that may read an event in full, if there is exactly one. */
export function ownerOf(e: RulesEvent): SideId | undefined {
  return e.visibility.to === 'sides' && e.visibility.sides.length === 1 ? e.visibility.sides[0] : undefined;
}

/** The events with each SecretOrdersApplied opened up in its place (for tests that look for a kind of event): each keeps the bundle's visibility. */
export function unbundled(events: readonly RulesEvent[]): RulesEvent[] {
  return events.flatMap((e) => (e.type === SECRETS_APPLIED ? (e.data as SecretsApplied).events.map((x) => ({ ...x, visibility: e.visibility })) : [e]));
}
