import { describe, expect, it } from 'vitest';
import { addFiles, filesForUpload, hasAllowedExtension } from './file-selection';

const file = (name: string, mb = 1) => ({ name, size: mb * 1024 * 1024 });
const defaults = {
  allowedExtensions: ['pdf', 'png', 'jpg', 'jpeg', 'xls', 'xlsx', 'csv'],
  maxFileSizeMb: 25,
  maxFileCount: 1,
};

describe('attachment rules', () => {
  it('compares the extension with a leading dot, case-insensitive', () => {
    expect(hasAllowedExtension('Angebot.PDF', defaults.allowedExtensions)).toBe(true);
    expect(hasAllowedExtension('pdf', defaults.allowedExtensions)).toBe(false);
    expect(hasAllowedExtension('bild.gif', defaults.allowedExtensions)).toBe(false);
  });

  it('drops wrong formats and oversize files with their errors', () => {
    const result = addFiles([], [file('a.exe'), file('b.pdf', 26)], defaults);
    expect(result.files).toEqual([]);
    expect(result.errors.sort()).toEqual(['fileFormat', 'maxFileSize']);
  });

  it('replaces the file when only one is allowed', () => {
    const first = addFiles([], [file('a.pdf')], defaults).files;
    const second = addFiles(first, [file('b.png')], defaults);
    expect(second.files.map((f) => f.name)).toEqual(['b.png']);
    expect(second.errors).toEqual([]);
  });

  it('cuts too many files to the maximum with a count error', () => {
    const result = addFiles([file('a.pdf')], [file('b.pdf'), file('c.pdf'), file('d.pdf')], {
      ...defaults,
      maxFileCount: 3,
    });
    expect(result.files.map((f) => f.name)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    expect(result.errors).toEqual(['maxFileCount']);
  });
});

describe('upload next to existing files (supplier order documents)', () => {
  const limits = { allowedExtensions: [], maxFileSizeMb: 25, maxFileCount: 10 };

  it('allows every format when no format is configured, drops oversize files', () => {
    const result = filesForUpload(0, [file('Lieferschein.tif'), file('gross.pdf', 26)], limits);
    expect(result.files.map((f) => f.name)).toEqual(['Lieferschein.tif']);
    expect(result.errors).toEqual(['maxFileSize']);
  });

  it('cuts the new files to the places the existing files leave free', () => {
    const result = filesForUpload(8, [file('a.pdf'), file('b.pdf'), file('c.pdf')], limits);
    expect(result.files.map((f) => f.name)).toEqual(['a.pdf', 'b.pdf']);
    expect(result.errors).toEqual(['maxFileCount']);
    expect(filesForUpload(10, [file('d.pdf')], limits)).toEqual({ files: [], errors: ['maxFileCount'] });
    expect(filesForUpload(2, [file('e.pdf')], limits).errors).toEqual([]);
  });
});
