/** JSON values: everything in the game state, events and views is one of these. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export type JsonObject = { readonly [key: string]: Json };

/** Deep readonly view of a parsed structure (scenario files are never changed after load). */
export type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * Equal as JSON values: arrays item by item, objects key by key. Whether object keys must also
 * come in the same order is the caller's: the text of a value shows its key order, yet the
 * game it describes does not.
 */
export function sameJson(a: unknown, b: unknown, keyOrder: 'ignored' | 'significant'): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], keyOrder)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (keyOrder === 'significant' ? k !== kb[i] : !Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], keyOrder)) return false;
  }
  return true;
}
