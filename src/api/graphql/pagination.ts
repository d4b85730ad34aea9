import { Type } from '@nestjs/common';
import { ArgsType, Field, Int, ObjectType } from '@nestjs/graphql';
import { BadInputError } from '../../common/errors';
import { inputProblem } from '../http/input-guards';

/** Opaque cursors: base64url JSON tagged with the list they belong to. */
export function encodeCursor(list: string, value: unknown): string {
  return Buffer.from(JSON.stringify([list, value])).toString('base64url');
}

export function decodeCursor<T>(list: string, cursor: string | null | undefined, check: (v: unknown) => v is T): T | undefined {
  // An empty cursor is none this list hands out: read as "no cursor", it restarted the list at its first page.
  if (cursor === undefined || cursor === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  // What a cursor decodes to passed none of the request's input checks, and goes into a query.
  if (!Array.isArray(parsed) || parsed[0] !== list || inputProblem(parsed, 'cursor') !== null || !check(parsed[1])) {
    throw badCursor();
  }
  return parsed[1];
}

/** A cursor the list did not hand out: forged, or from another list (another game's history). */
export const badCursor = () => new BadInputError('request/bad_cursor', 'That cursor is not one this list handed out.', { field: 'after' });

export const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
export const isPositiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1;

/** The page size asked for, within 1..max; a bigger one is refused rather than cut silently. */
export function pageSize(first: number | null | undefined, max: number, fallback = 20): number {
  const n = first ?? Math.min(fallback, max);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new BadInputError('request/bad_page_size', `A page holds 1 to ${max} items.`, { field: 'first', max });
  }
  return n;
}

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: "How many items to return: 1 to the server's page cap (API_MAX_PAGE_SIZE, 100 unless configured); 20 when omitted, the page cap for a game's history." })
  first?: number | null;

  @Field(() => String, { nullable: true, description: 'Return the items after this cursor (a previous page\'s pageInfo.endCursor).' })
  after?: string | null;
}

@ObjectType({ description: 'Where a page stands in its list.' })
export class PageInfo {
  @Field({ description: 'True when another page follows; ask for it with after: endCursor.' })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The cursor of the last item of this page; null on an empty page.' })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Array<Edge<T>>;
  nodes: T[];
  pageInfo: PageInfo;
}

/** A Relay-style connection type for `node`: edges (cursor and node), nodes, pageInfo. */
export function ConnectionType<T>(node: Type<T>, name: string, what: string): Type<Connection<T>> {
  @ObjectType(`${name}Edge`, { description: `One ${what} and its cursor.` })
  class EdgeType {
    @Field({ description: 'Pass as `after` to get the items after this one.' })
    cursor!: string;

    @Field(() => node, { description: `The ${what}.` })
    node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${what}s.` })
  class ConnectionClass {
    @Field(() => [EdgeType], { description: `The ${what}s of this page, each with its cursor.` })
    edges!: EdgeType[];

    @Field(() => [node], { description: `The ${what}s of this page (the edges without cursors).` })
    nodes!: T[];

    @Field(() => PageInfo, { description: 'Whether more follow, and the cursor to continue from.' })
    pageInfo!: PageInfo;
  }
  return ConnectionClass;
}

export function connection<T>(items: T[], cursors: string[], hasNextPage: boolean): Connection<T> {
  const edges = items.map((node, i) => ({ cursor: cursors[i]!, node }));
  return { edges, nodes: items, pageInfo: { hasNextPage, endCursor: edges.length ? edges[edges.length - 1]!.cursor : null } };
}
