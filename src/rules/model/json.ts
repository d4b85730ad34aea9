/** JSON values: everything in the game state, events and views is one of these. */
export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export type JsonObject = { readonly [key: string]: Json };

/** Deep readonly view of a parsed structure (scenario files are never changed after load). */
export type DeepReadonly<T> = T extends (infer E)[]
  ? readonly DeepReadonly<E>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
