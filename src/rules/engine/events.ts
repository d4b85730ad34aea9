import { Json, JsonObject } from '../model/json';
import { Scenario } from '../model/scenario';
import { HexLabel, PendingResolution, PhaseState, ReactionRequest, UnitId } from '../model/state';
import { RulesEvent, SideId } from './types';

/**
 * The kernel's events: past-tense facts every system shares. A system adds
 * its own (its evolve handles them); the kernel's evolve handles these.
 * `data` is always JSON.
 */
export interface KernelEventData {
  GameStarted: { scenario: Scenario; ext: Json };
  PhaseAdvanced: { stage: PhaseState['stage']; turn: number; index: number; phase: string; mode: PhaseState['mode']; acting: SideId[] };
  OrdersSealed: { side: SideId; orders: Json };
  StandingOrdersSet: { side: SideId; orders: JsonObject };
  /** `hex` or `carrier`; `hidden` = the marker it is placed under (absent = in the open). */
  UnitPlaced: { unit: UnitId; hex?: HexLabel; carrier?: UnitId; hidden?: string };
  /** `path` starts with the hex it left. `with`: units that moved along as one stack. */
  UnitMoved: { unit: UnitId; path: HexLabel[]; cost: number; with?: UnitId[]; stoppedBy?: string };
  /** `returned`: put back aboard by a failed unloading (it never left, GT-7O.2), so neither it nor the carrier counts as having loaded (GT-6G.1). */
  UnitLoaded: { unit: UnitId; carrier: UnitId; returned?: true };
  UnitUnloaded: { unit: UnitId; hex: HexLabel };
  UnitHitched: { unit: UnitId; towers: UnitId[] };
  UnitUnhitched: { unit: UnitId; hex: HexLabel };
  /** Sets per-turn flags and lasting attrs (null removes an attr). */
  UnitMarked: { unit: UnitId; flags?: JsonObject; attrs?: JsonObject };
  /** Several units marked at once (an attack's attackers): one event however many are concealed. */
  UnitsMarked: { marks: Array<{ unit: UnitId; flags?: JsonObject; attrs?: JsonObject }> };
  UnitRevealed: { unit: UnitId; type: string; hex: HexLabel | null; cause: string };
  UnitConcealed: { unit: UnitId; marker: string };
  /** `retreatChoice`: an attacker's retreat chosen in its order was followed or, not legal then, replaced by the engine's (Q-GT-35); read only by its side. */
  UnitRetreated: { unit: UnitId; path: HexLabel[]; with?: UnitId[]; retreatChoice?: 'used' | 'ignored' };
  /** `aboard`: its cargo at any depth, destroyed with it (GT-7E.1). */
  UnitEliminated: { unit: UnitId; cause: string; aboard: UnitId[] };
  SideUpdated: { side: SideId; public?: JsonObject; notes?: JsonObject };
  ResolutionSuspended: { pending: Omit<PendingResolution, 'request'> };
  ReactionRequested: { request: ReactionRequest };
  /** `applied`, for an expiry: what answered, the side's standing orders or none of them (no reaction); its side alone reads it. */
  ReactionAnswered: { side: SideId; kind: string; answer: Json; by: 'side' | 'standing-orders' | 'expiry'; applied?: 'standing-orders' | 'none' };
  ResolutionResumed: { side: SideId };
  GameEnded: { winner: SideId | null; reason: string; ruleId: string };
  /** A combat and its result, as data for the log (the result's effects are their own events). */
  AttackResolved: JsonObject;
  /** An attack that did not happen (failed pre-roll GT-7B.1, target gone, zero strength Q-GT-27). */
  AttackCancelled: JsonObject;
  /** An accepted order that could not be carried out once earlier orders had been resolved; one of its side's records (RECORDS). */
  OrderCancelled: { side: SideId; index: number; kind: string; reason: string; ruleId: string };
}

export type KernelEventType = keyof KernelEventData;

export type KernelEvent = { [K in KernelEventType]: { type: K; data: KernelEventData[K] } }[KernelEventType];

/** What evolve takes: an event's type and data (visibility is for readers, not for state). */
export type EventBody = { type: string; data: unknown };

const KERNEL_TYPES: ReadonlySet<string> = new Set<KernelEventType>([
  'GameStarted',
  'PhaseAdvanced',
  'OrdersSealed',
  'StandingOrdersSet',
  'UnitPlaced',
  'UnitMoved',
  'UnitLoaded',
  'UnitUnloaded',
  'UnitHitched',
  'UnitUnhitched',
  'UnitMarked',
  'UnitsMarked',
  'UnitRevealed',
  'UnitConcealed',
  'UnitRetreated',
  'UnitEliminated',
  'SideUpdated',
  'ResolutionSuspended',
  'ReactionRequested',
  'ReactionAnswered',
  'ResolutionResumed',
  'GameEnded',
  'OrderCancelled',
  'AttackResolved',
  'AttackCancelled',
]);

export function isKernelEvent(e: EventBody): e is KernelEvent {
  return KERNEL_TYPES.has(e.type);
}

/** A kernel event visible to all. */
export function publicEvent<K extends KernelEventType>(type: K, data: KernelEventData[K]): RulesEvent<K, KernelEventData[K]> {
  return { type, data, visibility: { to: 'all' } };
}

/** A kernel event only `sides` may read; the others get `redacted` (or nothing). */
export function privateEvent<K extends KernelEventType>(
  type: K,
  data: KernelEventData[K],
  sides: SideId[],
  redacted?: { type: string; data: unknown },
): RulesEvent<K, KernelEventData[K]> {
  return { type, data, visibility: redacted === undefined ? { to: 'sides', sides } : { to: 'sides', sides, redacted } };
}

/** Order `index` of `side`, of this kind, cancelled at resolution for this violation: read only by its side. */
export function orderCancelled(side: SideId, index: number, kind: string, v: { message: string; ruleId: string }): RulesEvent<'OrderCancelled', KernelEventData['OrderCancelled']> {
  return privateEvent('OrderCancelled', { side, index, kind, reason: v.message, ruleId: v.ruleId }, [side]);
}

/** The kernel's event types that are a side's own records of its orders (SystemSpec.records, kit/own-records.ts). */
export const RECORDS: readonly KernelEventType[] = ['OrderCancelled'];

/**
 * The one event that holds what only its side may read of the sealed orders it gave
 * (kit/sealed-secrets.ts), or its records of a run of its orders (kit/own-records.ts); evolve
 * folds the events inside it in their order.
 */
export const SECRETS_APPLIED = 'SecretOrdersApplied';

export interface SecretsApplied {
  side: SideId;
  events: EventBody[];
}
