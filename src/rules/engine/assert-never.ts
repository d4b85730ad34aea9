/** Makes a switch over a union exhaustive: the compiler rejects a missing case. */
export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(x)}`);
}
