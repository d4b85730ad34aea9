import type { Type } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';

export interface RestPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * The `{ items, nextCursor }` page every REST list answers with, for one item DTO. Call it once
 * per item type: the schema is named after the item (GameListingDto -> GameListingPageDto), so a
 * second call would describe the same schema twice.
 */
export function PageOf<T>(item: Type<T>, what: string, order?: string): Type<RestPage<T>> {
  const ordered = order ? `, ${order}` : '';
  // Not "The ${what}": `what` may bring its own article ("the game's invitations").
  @ApiSchema({ name: `${item.name.replace(/Dto$/, '')}PageDto`, description: `A page of ${what}${ordered}.` })
  class Page {
    @ApiProperty({ type: [item], description: `${what.charAt(0).toUpperCase()}${what.slice(1)} on this page${ordered}.` })
    items!: T[];

    @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` to get the next page; null on the last page.' })
    nextCursor!: string | null;
  }
  return Page;
}
