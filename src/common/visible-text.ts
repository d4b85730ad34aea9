/**
 * Whether a name other people read (a player's display name, a game's title) shows something:
 * no control or format characters (zero-width spaces, right-to-left overrides, which make one
 * name look like another or flip the text around it), and at least one character that prints.
 * Blank-looking letters (the Hangul fillers, the blank Braille pattern) count as blank, and so do
 * the default-ignorable marks (variation selectors, the combining grapheme joiner), which draw
 * nothing; a combining mark shows only on a character it sits on, so marks alone are blank too.
 */
export function visibleTextProblem(text: string): string | null {
  if (/[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(text)) return 'holds an invisible or control character (such as a zero-width space or a direction override)';
  const printed = text.replace(/[\s\u2800\p{Default_Ignorable_Code_Point}]/gu, '');
  if (!/[\p{L}\p{N}\p{P}\p{S}]/u.test(printed)) return 'shows nothing: it is all blank';
  return null;
}
