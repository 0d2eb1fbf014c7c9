/**
 * Getting at the data inside a Google Play details page: the `AF_initDataCallback({key, data})`
 * script blocks, the JSON-LD block, and index paths through Google's protobuf-as-JSON arrays.
 */

export interface DataBlock {
  key: string;
  data: unknown;
  /** Characters of the data literal, for diagnostics. */
  size: number;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * One step of a path. Google serialises messages as arrays (field n at index n-1) and, on newer
 * pages, packs trailing high fields into one object at the end of the array keyed by field number:
 * the data-safety section that sits at index 136 on one page is under key "137" of the tail object
 * on another. So an index past the dense part resolves through the tail object as key index+1.
 */
function child(node: unknown, index: number): unknown {
  if (Array.isArray(node)) {
    const tail = node.length > 0 && isPlainObject(node[node.length - 1]) ? (node[node.length - 1] as Record<string, unknown>) : null;
    const dense = tail ? node.length - 1 : node.length;
    if (index < dense) return node[index];
    return tail ? tail[String(index + 1)] : undefined;
  }
  // A message reached as a bare object uses the same field-number keys.
  if (isPlainObject(node)) return node[String(index + 1)];
  return undefined;
}

export function at(node: unknown, ...path: number[]): unknown {
  let cur = node;
  for (const index of path) {
    cur = child(cur, index);
    if (cur === undefined || cur === null) return undefined;
  }
  return cur;
}

export const strAt = (node: unknown, ...path: number[]): string | null => {
  const v = at(node, ...path);
  return typeof v === 'string' && v.trim() !== '' ? v : null;
};

export const numAt = (node: unknown, ...path: number[]): number | null => {
  const v = at(node, ...path);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

export const listAt = (node: unknown, ...path: number[]): unknown[] => {
  const v = at(node, ...path);
  return Array.isArray(v) ? v : [];
};

/** End index (exclusive) of the JSON array or object starting at `start`, or -1. */
function endOfJsonValue(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Every AF_initDataCallback block whose data parses; `broken` counts those that did not. */
export function extractDataBlocks(html: string): { blocks: DataBlock[]; broken: string[] } {
  const blocks: DataBlock[] = [];
  const broken: string[] = [];
  const marker = 'AF_initDataCallback(';
  for (let pos = html.indexOf(marker); pos !== -1; pos = html.indexOf(marker, pos + marker.length)) {
    const head = html.slice(pos + marker.length, pos + marker.length + 400);
    const key = /key\s*:\s*['"]([^'"]{1,64})['"]/.exec(head)?.[1] ?? '?';
    // Older pages wrapped the literal as `data:function(){return [...]}`.
    const dataAt = /data\s*:\s*(?:function\s*\(\)\s*\{\s*return\s*)?(?=[[{])/.exec(head);
    if (!dataAt) {
      broken.push(key);
      continue;
    }
    const start = pos + marker.length + dataAt.index + dataAt[0].length;
    const end = endOfJsonValue(html, start);
    if (end === -1) {
      broken.push(key);
      continue;
    }
    try {
      blocks.push({ key, data: JSON.parse(html.slice(start, end)), size: end - start });
    } catch {
      broken.push(key);
    }
  }
  return { blocks, broken };
}

export interface SoftwareApplicationLd {
  name?: unknown;
  description?: unknown;
  applicationCategory?: unknown;
  image?: unknown;
  author?: { name?: unknown };
  aggregateRating?: { ratingValue?: unknown; ratingCount?: unknown };
  offers?: unknown;
}

/** The page's JSON-LD SoftwareApplication (or subtype), if any. */
export function findSoftwareApplication(html: string): SoftwareApplicationLd | null {
  const re = /<script[^>]*type=["']application\/ld\+json["'][^>]*>([\s\S]*?)<\/script>/gi;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(m[1]);
    } catch {
      continue;
    }
    const nodes = Array.isArray(parsed) ? parsed : isPlainObject(parsed) && Array.isArray(parsed['@graph']) ? parsed['@graph'] : [parsed];
    for (const node of nodes) {
      if (!isPlainObject(node)) continue;
      const types = ([] as unknown[]).concat(node['@type']);
      if (types.some((t) => typeof t === 'string' && /Application$|^VideoGame$/.test(t))) return node as SoftwareApplicationLd;
    }
  }
  return null;
}

/** What a page looked like, for the log line that must let someone fix the parser. */
export function describePage(html: string, blocks: DataBlock[], broken: string[]): Record<string, unknown> {
  const title = /<title[^>]*>([^<]{0,200})<\/title>/i.exec(html)?.[1]?.trim() ?? null;
  const looksLike = /consent\.google\.|Before you continue/i.test(html)
    ? 'consent'
    : /\/sorry\/|unusual traffic|captcha/i.test(html)
      ? 'captcha'
      : null;
  return {
    bytes: html.length,
    title,
    looksLike,
    blocks: blocks.map((b) => ({
      key: b.key,
      size: b.size,
      topLevel: Array.isArray(b.data) ? b.data.length : typeof b.data,
      inner: Array.isArray(b.data) && Array.isArray(b.data[1]) ? b.data[1].length : null,
    })),
    brokenBlocks: broken,
  };
}
