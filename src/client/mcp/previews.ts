/**
 * A succeeded job's slides for an agent: a link to each full-size PNG and the ZIP (signed URLs
 * that need no key), and small previews it can look at. Full size would be megabytes of base64
 * per slide in the conversation.
 */
import type { Job, ShotgenClient } from '@shotgen/client';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const PREVIEW_WIDTH = 320;

interface Picture {
  url: string;
  bytes: number;
}
interface PictureSlide {
  index: number;
  role: string;
  headline: string;
  image?: Picture | null;
}

async function preview(url: string): Promise<string | null> {
  const res = await fetch(url);
  if (!res.ok) return null;
  const { default: sharp } = await import('sharp');
  const png = await sharp(Buffer.from(await res.arrayBuffer())).resize({ width: PREVIEW_WIDTH }).png({ compressionLevel: 9 }).toBuffer();
  return png.toString('base64');
}

export async function slidePreviews(client: ShotgenClient, job: Job, images: boolean): Promise<CallToolResult['content']> {
  const result = job.result as unknown as { slides: PictureSlide[]; archive?: Picture | null } | null;
  if (!result) return [];
  const absolute = (url: string) => new URL(url, `${client.baseUrl}/`).toString();
  const content: CallToolResult['content'] = [];
  for (const slide of result.slides) {
    if (!slide.image) continue;
    const url = absolute(slide.image.url);
    content.push({ type: 'resource_link', uri: url, name: `slide-${slide.index}-${slide.role}.png`, mimeType: 'image/png', description: slide.headline, size: slide.image.bytes });
    if (images) {
      const data = await preview(url).catch(() => null);
      if (data) content.push({ type: 'image', data, mimeType: 'image/png' });
    }
  }
  if (result.archive) content.push({ type: 'resource_link', uri: absolute(result.archive.url), name: `${job.id}.zip`, mimeType: 'application/zip', size: result.archive.bytes });
  return content;
}
