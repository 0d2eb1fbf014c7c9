/**
 * Caption model errors that callers outside the planning thread tell apart. Its own module, with no
 * imports, so that importing it never loads the planner (and its language model) on the main thread.
 */

/** The model could not translate a locale: worth retrying the job later, never shipped half done. */
export class TranslationFailed extends Error {
  override name = 'TranslationFailed';
}
