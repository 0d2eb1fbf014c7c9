/**
 * A set refused as too long for what the listing says (cannot_fill_set) is answered with its
 * remedies where the user can apply them: each links to the part of the app's page that does it.
 */
import { html } from '../html.ts';

const FIXES: Record<string, { anchor: string; text: string }> = {
  extraContext: { anchor: 'guidance', text: 'Tell us more about the app: edit its guidance for the captions' },
  screens: { anchor: 'screens', text: 'Upload screens of the app for this device' },
  slides: { anchor: 'captions', text: 'Write the captions yourself, one headline a line' },
  count: { anchor: 'count', text: 'Ask for fewer slides' },
  narrativeId: { anchor: 'narrativeId', text: 'Choose no story: the default story fills the slides' },
  captionLength: { anchor: 'captionLength', text: 'Ask for long captions: the listing’s lines are longer than a short headline' },
};

/** Every remedy of a set that came out short or failed for it. */
export const SET_FIXES = ['extraContext', 'screens', 'slides', 'count'] as const;

export function refusalFixes(appId: string, fixes: readonly string[] | undefined) {
  const known = (fixes ?? []).filter((f) => f in FIXES);
  if (!known.length) return '';
  return html`<nav class="card fixes" aria-labelledby="fixes-title">
    <h2 id="fixes-title">How to get this set</h2>
    <ul>
      ${known.map((f) => html`<li><a href="/apps/${appId}#${FIXES[f].anchor}">${FIXES[f].text}</a></li>`)}
    </ul>
  </nav>`;
}
