/**
 * Sentences of the catalogues as data for the views, which escape every part (README.md, Pages): a
 * name someone else chose (an application's) is isolated in `<bdi>` by `views/partials/sentence.eta`
 * (HTML §4.5.24, Unicode UAX #9 isolates), so that whatever its characters' direction it cannot
 * reorder the page's own sentence around it (SECURITY.md, "Look-alike and reordered application names").
 */
export interface NamedSentence {
  /** The sentence's own words, split where the name goes. */
  parts: string[];
  name: string;
}

// NUL: never part of a catalogue sentence, so it marks where the name goes.
const NAME_SLOT = '\u0000';

/** A catalogue sentence about a name (`t.consentIntro(name)`), for `views/partials/sentence.eta`. */
export function sentenceWithName(sentence: (name: string) => string, name: string): NamedSentence {
  return { parts: sentence(NAME_SLOT).split(NAME_SLOT), name };
}

/** A sentence without a name, for the same partial. */
export function plainSentence(text: string): NamedSentence {
  return { parts: [text], name: '' };
}

/** A catalogue sentence with `{}` replaced by a value in bold, for `views/partials/emphasis.eta`. */
export interface Emphasis {
  before: string;
  value: string;
  after: string;
}

export function emphasised(template: string, value: string): Emphasis {
  const [before, after = ''] = template.split('{}');
  return { before, value, after };
}
