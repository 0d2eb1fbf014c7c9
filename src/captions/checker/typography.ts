/**
 * Punctuation as the locale's readers write it, not as English does. Spanish opens what it closes
 * ("¡Duerme mejor!", "¿Te cuesta dormir?"): a closing "!" alone reads as a spelling error. French
 * sets a space before its high marks ("Des idées repas chaque jour !"): a narrow no-break space
 * (U+202F) before "!", "?", ";", a no-break one (U+00A0, or the narrow) before ":", so a line never
 * breaks before the mark (UAX #14 gives both class GL) and the mark never glues to its word.
 */

const NNBSP = '\u202F';
const NBSP = '\u00A0';

/** A sentence and the whitespace after it: the marks are judged sentence by sentence. */
const SENTENCE = /[^.!?…]*(?:[.!?…]+|$)\s*/gu;

/** Spanish: an exclamation or a question opens with its mark ("¡…!", "¿…?"). */
function openSpanish(text: string): string {
  return (text.match(SENTENCE) ?? [])
    .map((s) => {
      const m = /([!?])[!?]*(\s*)$/u.exec(s);
      if (!m || /[¡¿]/u.test(s)) return s;
      const at = s.search(/\S/u);
      return `${s.slice(0, at)}${m[1] === '!' ? '¡' : '¿'}${s.slice(at)}`;
    })
    .join('');
}

/**
 * French: the high marks after a narrow no-break space, a colon after a no-break one (not "10:30",
 * not "https:"); a number's groups of three joined by the narrow one ("Plus de 2 000 avis"), so a
 * line never breaks inside the number.
 */
function spaceFrench(text: string): string {
  return text
    .replace(/(\d)[ \u00A0](?=\d{3}(?!\d))/gu, `$1${NNBSP}`)
    .replace(/([^\s\u00A0\u202F!?;])[ \t]?([!?;]+)/gu, `$1${NNBSP}$2`)
    .replace(/([^\s\u00A0\u202F])[ \t]?:(?=\s|$)/gu, `$1${NBSP}:`);
}

/** `text` punctuated as `language` writes it (a no-op for every other language). */
export function localePunctuation(text: string, language: string): string {
  if (language === 'es') return openSpanish(text);
  if (language === 'fr') return spaceFrench(text);
  return text;
}

/** Why `text` is punctuated as English would, not as `language` does, or null. */
export function punctuationFault(text: string, language: string): string | null {
  if (language === 'es') {
    const open = (text.match(SENTENCE) ?? []).find((s) => /[!?]\s*$/u.test(s) && !/[¡¿]/u.test(s));
    return open ? `closes "${open.trim()}" with no opening "¡" or "¿", as Spanish writes it` : null;
  }
  if (language === 'fr') {
    const glued = /[^\s\u00A0\u202F!?;:][!?;]|[^\s\u00A0\u202F:][:](?=\s|$)/u.exec(text);
    return glued ? `glues "${glued[0].slice(-1)}" to its word: French sets a no-break space before it` : null;
  }
  return null;
}
