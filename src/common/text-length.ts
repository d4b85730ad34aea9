/**
 * How many characters `text` holds as its reader counts them: Unicode code points, so that an
 * emoji beyond the Basic Multilingual Plane is one, not the two UTF-16 units String.length
 * counts. Every limit the API states in characters (a title, a display name, a key) counts with
 * this; a cap that protects storage or a protocol (bytes of a body, a URL) keeps its own measure.
 */
export function charCount(text: string): number {
  let count = 0;
  // for..of steps by code point; unlike [...text], it builds no array out of a long input.
  for (const _ of text) count++;
  return count;
}
