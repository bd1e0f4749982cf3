import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import { hasNoForbiddenChars } from '@fleetgate/shared/limits';

export type FileRuleOptions = {
  /** Bytes; 80 MB by default (product §5, §9). */
  maxSize?: number;
  /** Spaces in the file name are refused unless allowed (product §5). */
  allowSpaces?: boolean;
};

export type FileError = { code: 'size'; size: string } | { code: 'forbidden' } | { code: 'spaces' };

/** Byte counts in base-1024 units (product §9): `83886080` → `80 MB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = Number.isInteger(value) ? value : Number(value.toFixed(1));
  return `${rounded} ${units[unit]}`;
}

/**
 * The file input rules of product §5: at most the maximum size ('Maximum file size is
 * {size}'), no forbidden symbols in the name, no spaces unless allowed.
 */
export function checkFile(
  file: { name: string; size: number },
  options: FileRuleOptions = {},
): FileError | null {
  const maxSize = options.maxSize ?? MAX_FILE_SIZE_BYTES;
  if (file.size > maxSize) return { code: 'size', size: formatBytes(maxSize) };
  if (!hasNoForbiddenChars(file.name)) return { code: 'forbidden' };
  if (!options.allowSpaces && /\s/.test(file.name)) return { code: 'spaces' };
  return null;
}

/**
 * Dropped files filtered by the accept types that contain a slash (MIME types such as
 * `application/json` or `image/*`, product §5). Extensions in `accept` do not filter drops.
 */
export function filterDropped<T extends { type: string }>(
  files: readonly T[],
  accept: string | undefined,
): T[] {
  const types = (accept ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part.includes('/'));
  if (types.length === 0) return [...files];
  return files.filter((file) => {
    const type = file.type.toLowerCase();
    return types.some((accepted) =>
      accepted.endsWith('/*') ? type.startsWith(accepted.slice(0, -1)) : type === accepted,
    );
  });
}
