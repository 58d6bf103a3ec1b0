/** Attachment rules of the spec (buyer-side.md §5): allowed formats, size per file, number of files. */
export interface FileLimits {
  /** Extensions without dot, e.g. ['pdf', 'png']; an empty list allows every format. */
  allowedExtensions: readonly string[];
  maxFileSizeMb: number;
  maxFileCount: number;
}

export type FileErrorKind = 'fileFormat' | 'maxFileSize' | 'maxFileCount';

export const fileErrorText = (kind: FileErrorKind, limits: FileLimits): string => {
  switch (kind) {
    case 'fileFormat':
      return 'Bitte überprüfen Sie das Format Ihrer Datei.';
    case 'maxFileCount':
      return limits.maxFileCount === 1
        ? 'Es ist nur 1 Datei erlaubt.'
        : `Es sind maximal ${limits.maxFileCount} Dateien erlaubt.`;
    case 'maxFileSize':
      return `Bitte überprüfen Sie die Dateigröße (maximal ${limits.maxFileSizeMb} MB).`;
  }
};

/** '.PDF' and 'pdf' are the same format; the file's extension is compared with a leading dot. */
export function hasAllowedExtension(fileName: string, allowedExtensions: readonly string[]): boolean {
  if (allowedExtensions.length === 0) return true;
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return false;
  const extension = fileName.slice(dot).toLowerCase();
  return allowedExtensions.some((allowed) => `.${allowed.replace(/^\./, '').toLowerCase()}` === extension);
}

interface NamedFile {
  name: string;
  size: number;
}

/** The added files of an allowed format and size; each rule that dropped a file is added to `errors`. */
function withAllowedFormatAndSize<F extends NamedFile>(
  added: readonly F[],
  limits: FileLimits,
  errors: Set<FileErrorKind>,
) {
  const maxBytes = limits.maxFileSizeMb * 1024 * 1024;
  return added.filter((file) => {
    if (!hasAllowedExtension(file.name, limits.allowedExtensions)) {
      errors.add('fileFormat');
      return false;
    }
    if (file.size > maxBytes) {
      errors.add('maxFileSize');
      return false;
    }
    return true;
  });
}

/**
 * Adds dropped files to the selection: wrong formats and oversize files are dropped (with their error),
 * too many files are cut to the maximum (count error); with a maximum of 1 a new file replaces the old one.
 */
export function addFiles<F extends NamedFile>(current: readonly F[], added: readonly F[], limits: FileLimits) {
  const errors = new Set<FileErrorKind>();
  const accepted = withAllowedFormatAndSize(added, limits, errors);

  if (limits.maxFileCount === 1) {
    if (accepted.length > 1) errors.add('maxFileCount');
    const files = accepted.length ? [accepted[accepted.length - 1]] : [...current];
    return { files, errors: [...errors] };
  }
  const combined = [...current, ...accepted];
  if (combined.length > limits.maxFileCount) errors.add('maxFileCount');
  return { files: combined.slice(0, limits.maxFileCount), errors: [...errors] };
}

/**
 * Files for an upload to a place that already holds `existingCount` files, where the count limit covers the
 * existing and the new files (e.g. the documents of a supplier order): wrong formats and oversize files are
 * dropped, the rest is cut to the free places; each rule that removed a file is reported once.
 */
export function filesForUpload<F extends NamedFile>(existingCount: number, added: readonly F[], limits: FileLimits) {
  const errors = new Set<FileErrorKind>();
  const accepted = withAllowedFormatAndSize(added, limits, errors);
  const free = Math.max(0, limits.maxFileCount - existingCount);
  if (accepted.length > free) errors.add('maxFileCount');
  return { files: accepted.slice(0, free), errors: [...errors] };
}
