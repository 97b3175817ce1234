// The one failure a full disk (or a store's size quota) raises, so every facade can answer 507 and clients retry later.
export class StorageFull extends Error {
  constructor(cause: unknown) {
    super('Insufficient Storage', { cause });
  }
}

/** Whether an error from a store, the file system or a driver says the disk is full. */
export function isStorageFull(error: unknown): boolean {
  if (error instanceof StorageFull) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'SQLITE_FULL' || code === 'EDQUOT';
}
