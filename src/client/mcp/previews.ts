/**
 * A succeeded job's slides for an agent: a link to each full-size PNG, every locale's for a set in
 * several, and the ZIP (signed URLs that need no key), and small previews it can look at. Full size
 * would be megabytes of base64 per slide in the conversation.
 */
import { slidesByLocale, type Job, type ShotgenClient } from '@shotgen/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const PREVIEW_WIDTH = 320;
// A 10-locale, 10-slide set would put 100 images in the conversation: links for all, previews for the first ones.
const MAX_PREVIEWS = 20;

async function preview(url: string): Promise<string | null> {
  const res = await fetch(url);
  if (!res.ok) return null;
  const { default: sharp } = await import('sharp');
  const png = await sharp(Buffer.from(await res.arrayBuffer()))
    .resize({ width: PREVIEW_WIDTH })
    .png({ compressionLevel: 9 })
    .toBuffer();
  return png.toString('base64');
}

export async function slidePreviews(client: ShotgenClient, job: Job, images: boolean): Promise<CallToolResult['content']> {
  const result = job.result;
  if (!result) return [];
  const absolute = (url: string) => new URL(url, `${client.baseUrl}/`).toString();
  const content: CallToolResult['content'] = [];
  let previews = 0;
  for (const { locale, slides } of slidesByLocale(result)) {
    for (const slide of slides) {
      if (!slide.image) continue;
      const url = absolute(slide.image.url);
      const name = `${locale ? `${locale}/` : ''}slide-${slide.index}-${slide.role}.png`;
      content.push({ type: 'resource_link', uri: url, name, mimeType: 'image/png', description: slide.headline, size: slide.image.bytes });
      if (images && previews < MAX_PREVIEWS) {
        previews++;
        const data = await preview(url).catch(() => null);
        if (data) content.push({ type: 'image', data, mimeType: 'image/png' });
      }
    }
  }
  if (result.archive)
    content.push({
      type: 'resource_link',
      uri: absolute(result.archive.url),
      name: `${job.id}.zip`,
      mimeType: 'application/zip',
      size: result.archive.bytes,
    });
  return content;
}
