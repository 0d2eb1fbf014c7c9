/**
 * The plan of one slot (a locale's display type or image type): which of the store's images stay,
 * which are uploaded, moved or deleted, decided by checksum only, so publishing the same set twice
 * plans nothing and an edited set uploads only the changed slides.
 */
export type Action = 'keep' | 'upload' | 'reorder' | 'delete';

export interface Desired {
  file: string;
  checksum: string;
}

export interface Remote {
  id: string;
  checksum: string;
}

export interface PlannedItem {
  action: Action;
  /** 1-based place afterwards; null for a delete. */
  position: number | null;
  file: string | null;
  remoteId: string | null;
}

/**
 * `appendOnly`: the store cannot reorder (Google Play: an upload goes last). Then the images kept
 * must already be the first ones in the right order; otherwise the whole slot is replaced.
 */
export function planSlot(desired: Desired[], remote: Remote[], opts: { appendOnly?: boolean } = {}): PlannedItem[] {
  const used = new Set<number>();
  const matched = desired.map((d) => {
    const i = remote.findIndex((r, j) => !used.has(j) && r.checksum === d.checksum);
    if (i >= 0) used.add(i);
    return i;
  });
  if (opts.appendOnly) {
    // Kept images stay in their order at the front: desired[0..k) must be remote[0..k) exactly.
    let k = 0;
    while (k < desired.length && matched[k] === k) k++;
    const keptOk = matched.every((m, i) => i < k || m < 0);
    if (!keptOk) {
      return [
        ...remote.map((r) => ({ action: 'delete' as const, position: null, file: null, remoteId: r.id })),
        ...desired.map((d, i) => ({ action: 'upload' as const, position: i + 1, file: d.file, remoteId: null })),
      ];
    }
  }
  const items: PlannedItem[] = desired.map((d, i) => {
    const m = matched[i];
    if (m < 0) return { action: 'upload', position: i + 1, file: d.file, remoteId: null };
    return { action: m === i ? 'keep' : 'reorder', position: i + 1, file: d.file, remoteId: remote[m].id };
  });
  remote.forEach((r, j) => {
    if (!used.has(j)) items.push({ action: 'delete', position: null, file: null, remoteId: r.id });
  });
  return items;
}
