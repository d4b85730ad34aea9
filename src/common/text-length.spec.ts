import { charCount } from './text-length';

describe('charCount', () => {
  it('counts code points: an emoji beyond the BMP is one character, not two UTF-16 units', () => {
    expect(charCount('')).toBe(0);
    expect(charCount('Gators!')).toBe(7);
    expect(charCount('\u{1F40A}')).toBe(1);
    expect(charCount('\u{1F40A}'.repeat(200))).toBe(200);
    expect(charCount('Unnarstan \u{1F40A}\u{1F3F4}')).toBe(12);
  });

  it('counts a combining mark or a variation selector as the code point it is', () => {
    expect(charCount('e\u0301')).toBe(2);
    expect(charCount('\u2764\uFE0F')).toBe(2);
  });

  it('counts as many as spreading the string into code points does, halves of a pair left alone included', () => {
    for (const s of ['\ud800', '\udc00x', 'a\ud83d', '\ud83d\ud83d\udc0a', 'x\u{10FFFF}y']) expect(charCount(s)).toBe([...s].length);
  });
});
