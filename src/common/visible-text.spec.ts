import { visibleTextProblem } from './visible-text';

describe('visibleTextProblem', () => {
  // Variation selectors, the combining grapheme joiner and Mongolian variation selectors are marks
  // (\p{M}) that draw nothing: a name of them alone was taken as one that shows something.
  it.each(['\ufe0f\ufe0f', '\u034f', '\u180b\u180c', '\udb40\udd00', ' \ufe0e '])('refuses %j, which shows nothing', (text) => {
    expect(visibleTextProblem(text)).toBe('shows nothing: it is all blank');
  });

  // A mark with nothing to sit on draws at most a stray accent, not a name.
  it('refuses a name of combining marks alone', () => {
    expect(visibleTextProblem('\u0301\u0301\u0301')).toBe('shows nothing: it is all blank');
  });

  it.each(['Zoë', 'Ali 🐊', '❤\ufe0f Gators', 'e\u0301', '李雷', 'क्ष'])('takes %j', (text) => {
    expect(visibleTextProblem(text)).toBeNull();
  });
});
