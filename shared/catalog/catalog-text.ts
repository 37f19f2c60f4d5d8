// The text of a catalog file (names, source descriptions) reaches the public picker, searches
// and alerts. A character people cannot see lets one entry pass for another ("iPhone 18 Pro"
// with a zero-width space is a second "iPhone 18 Pro"), a bidirectional control reorders what
// is shown, and NUL is refused by PostgreSQL; so such text is refused, naming the character.

const NAMED_CHARACTERS: Readonly<Record<number, string>> = {
  0x0000: 'NUL',
  0x00ad: 'SOFT HYPHEN',
  0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const CONTROL = /\p{Cc}/u;
const BROKEN = /\p{Cs}/u;
// Format characters: zero-width, joiners, BOM, tags (and private-use ones, drawn as nothing).
const INVISIBLE_FORMAT = /[\p{Cf}\p{Co}]/u;
// Letters and marks drawn as nothing: the combining grapheme joiner, Hangul fillers, Khmer
// inherent vowels, Mongolian variation selectors, the braille blank, variation selectors.
const DRAWN_AS_NOTHING: readonly (readonly [number, number])[] = [
  [0x034f, 0x034f],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xffa0, 0xffa0],
  [0xe0100, 0xe01ef],
];
// Any space but U+0020 (no-break, thin, ideographic...) and the line and paragraph separators.
const ODD_SPACE = /[\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;
const LOOK_ALIKE_SCRIPTS = ['Latin', 'Cyrillic', 'Greek'] as const;
const SCRIPT_PATTERNS = LOOK_ALIKE_SCRIPTS.map(
  (script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const,
);

/** "U+200B ZERO WIDTH SPACE": a character as people can look it up. */
export function formatCodePoint(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const name = NAMED_CHARACTERS[code];
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return name === undefined ? hex : `${hex} ${name}`;
}

function isInvisible(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    INVISIBLE_FORMAT.test(char) ||
    DRAWN_AS_NOTHING.some(([low, high]) => code >= low && code <= high)
  );
}

/** What is wrong with one character of a name, or undefined when it may stand in one. */
function describeCharacter(char: string): string | undefined {
  const named = formatCodePoint(char);
  if (BIDI_CONTROL.test(char)) return `a bidirectional control (${named}), which reorders text`;
  if (CONTROL.test(char)) return `a control character (${named})`;
  if (BROKEN.test(char)) return `a broken character (lone surrogate ${named})`;
  if (isInvisible(char)) return `an invisible character (${named})`;
  if (ODD_SPACE.test(char)) return `a space other than U+0020 (${named})`;
  return undefined;
}

/** A word that mixes Latin, Cyrillic or Greek letters ("іPhone" with a Cyrillic і). */
function describeMixedScripts(text: string): string | undefined {
  for (const word of text.split(/[^\p{L}\p{M}]+/u)) {
    const scripts = SCRIPT_PATTERNS.filter(([, pattern]) => pattern.test(word));
    if (scripts.length < 2) continue;
    const [first, second] = scripts;
    const odd = [...word].find((char) => second !== undefined && second[1].test(char)) ?? '';
    return `mixes ${first?.[0]} and ${second?.[0]} letters in one word (${formatCodePoint(odd)} in ${quoteForMessage(word)}), a look-alike`;
  }
  return undefined;
}

/** Why a name or description cannot be stored as written, or undefined when it can. */
export function findTextProblem(text: string): string | undefined {
  for (const char of text) {
    const problem = describeCharacter(char);
    if (problem !== undefined) return `must not contain ${problem}`;
  }
  return describeMixedScripts(text);
}

/** A checked name as it is stored: NFC, so the same letters are always the same code points. */
export function normalizeCatalogText(text: string): string {
  return text.normalize('NFC').trim();
}

/** A name as people compare names: case, spacing and composition aside. */
export function toComparableName(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * A value quoted for an error message, with every character that could hide or reorder text
 * written as \u{...}, so the message shows what the file holds rather than acting it out.
 */
export function quoteForMessage(value: string): string {
  let quoted = '';
  for (const char of value.length > 80 ? `${value.slice(0, 80)}…` : value) {
    if (describeCharacter(char) !== undefined) {
      quoted += `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
    } else {
      quoted += char === '"' || char === '\\' ? `\\${char}` : char;
    }
  }
  return `"${quoted}"`;
}
