/**
 * Parameters of one SQL statement assembled from parts (common table expressions) written by
 * different modules: each part adds its values and gets back their placeholders, so no part
 * needs to know how many parameters the others use.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A value sent as JSON text, for jsonb_to_recordset and friends. */
  json(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::jsonb`;
  }

  /** A value sent as JSON text kept as written (a json column: its keys stay in their order). */
  jsonText(value: unknown): string {
    return `${this.add(JSON.stringify(value))}::json`;
  }
}

/** One named common table expression of a data-modifying statement. */
export interface Cte {
  name: string;
  sql: string;
}

/** `WITH a AS (...), b AS (...) <tail>`. */
export function withCtes(ctes: readonly Cte[], tail: string): string {
  return `WITH ${ctes.map((c) => `${c.name} AS (\n${c.sql}\n)`).join(',\n')}\n${tail}`;
}
