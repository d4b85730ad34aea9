/**
 * The same value with every object's keys in sorted order. Postgres jsonb reorders keys, so an
 * answer built from freshly made events and one built from the stored copy would otherwise
 * differ in byte order; canonical form makes a replayed answer byte-identical to the first.
 */
export function canonical<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonical) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out as T;
  }
  return value;
}
