import { RulesEvent, SideId } from '../types';
import { ownerOf, secretsApplied } from './sealed-secrets';

/**
 * A run of a side's orders, logged so that the other sides cannot count the side's own records
 * of it: an order cancelled at resolution by what the side could not know when it planned, an
 * aircraft re-armed (its loadout is secret, GT-6C.2). Only the side reads them and the others
 * read nothing in their place, but every event takes a version that all sides count, so one
 * event per record told them how many. The records (events of `types` that only `side` reads)
 * go, in their order, into one SecretOrdersApplied at the end of the run, written even when
 * empty; the other events keep their order. Resolution has seen each record in place (the orders
 * after a re-arming see the new loadout); the log folds them at the run's end, which gives the
 * same game as long as no event a run may write after a record reads what the record changes
 * (SystemSpec.records).
 */
export function recordsGathered(events: readonly RulesEvent[], side: SideId, types: ReadonlySet<string>): RulesEvent[] {
  const isRecord = (e: RulesEvent) => types.has(e.type) && e.visibility.to === 'sides' && e.visibility.redacted === undefined && ownerOf(e) === side;
  return [...events.filter((e) => !isRecord(e)), secretsApplied(side, events.filter(isRecord))];
}
