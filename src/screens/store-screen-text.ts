/**
 * What the listing's own screenshots show, read once each (issue 33, item 1): the uploaded screens
 * are read when stored (./reader.ts); a listing's screenshots are stored nowhere, so the first set
 * that frames one fetches and reads it, and its text is kept by URL in `store_screen_texts` for
 * every set after it. The pictures are public store data: one row serves every account.
 */
import pLimit from 'p-limit';
import type { Queryable } from '../db/pool.ts';

/** A store picture's bytes (fetchStoreImage, allow-listed and bounded) and its OCR lines. */
export interface StoreScreenReading {
  fetch(url: string): Promise<Uint8Array>;
  read(bytes: Uint8Array, url: string): Promise<string[]>;
}

/** Two at a time: one OCR thread reads while the next picture downloads. */
const READS_AT_ONCE = 2;

/**
 * The lines of each picture in `urls`, from the table, reading (and keeping) only those never read.
 * A picture that cannot be fetched or read is left out of the answer, to be tried by the next set;
 * `onFailure` hears why. Never throws for one picture.
 */
export async function storeScreenTexts(
  db: Queryable,
  urls: readonly string[],
  reading: StoreScreenReading,
  onFailure?: (url: string, error: unknown) => void,
): Promise<Map<string, string[]>> {
  const wanted = [...new Set(urls)];
  const out = new Map<string, string[]>();
  if (wanted.length === 0) return out;
  const { rows } = await db.query<{ url: string; text: string[] }>('SELECT url, text FROM store_screen_texts WHERE url = ANY($1)', [
    wanted,
  ]);
  for (const r of rows) out.set(r.url, r.text);
  const limit = pLimit(READS_AT_ONCE);
  await Promise.all(
    wanted
      .filter((url) => !out.has(url))
      .map((url) =>
        limit(async () => {
          try {
            const lines = await reading.read(await reading.fetch(url), url);
            // Two sets reading one picture at once keep the first answer; both are the same reading.
            await db.query('INSERT INTO store_screen_texts (url, text) VALUES ($1, $2) ON CONFLICT (url) DO NOTHING', [url, lines]);
            out.set(url, lines);
          } catch (error) {
            onFailure?.(url, error);
          }
        }),
      ),
  );
  return out;
}
