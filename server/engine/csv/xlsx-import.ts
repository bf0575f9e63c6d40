import zlib from 'node:zlib';
import type ExcelJS from 'exceljs';
import { AppError } from '../../core/errors.ts';

/**
 * The most an uploaded workbook may hold once unzipped (all its parts): a file within the upload limit that
 * unzips to more (a zip bomb, or a sheet far past the row limit) is refused before anything parses it.
 */
export const XLSX_MAX_UNZIPPED = 64 * 1024 * 1024;

/** True when the bytes start like a zip archive (an .xlsx); anything else is read as CSV. */
export function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
}

/**
 * The first sheet of an uploaded .xlsx as the rows of text a CSV of the same data would give (csv/import.ts
 * reads both the same way): dates and times as `YYYY-MM-DD[ HH:MM:SS[.mmm]]` (a date cell holds the wall
 * clock, read as the site's time zone like a CSV time), numbers in JavaScript's shortest form, booleans as
 * true/false, rich text and links by their text, a formula by its cached result. Empty rows are skipped,
 * as in a CSV. 422 for a file that is not a workbook, unzips past XLSX_MAX_UNZIPPED (checked on the zip's
 * directory and again while inflating, so a lying directory is caught too), or has more than `max` rows.
 */
export async function readXlsx(bytes: Buffer, max: number): Promise<string[][]> {
  checkZip(bytes);
  // exceljs is imported on the first XLSX import, not when the server starts (issue 37 item 3).
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw notXlsx();
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw notXlsx();
  if (sheet.actualRowCount > max + 1) throw tooManyRows(max);
  const rows: string[][] = [];
  let width = 0;
  sheet.eachRow((row) => {
    const cells: string[] = [];
    const count = rows.length === 0 ? row.cellCount : Math.max(width, row.cellCount);
    for (let i = 1; i <= count; i++) cells.push(cellText(row.getCell(i).value));
    if (rows.length === 0) {
      while (cells.length && cells[cells.length - 1]!.trim() === '') cells.pop();
      width = cells.length;
    }
    if (cells.every((c) => c === '')) return;
    rows.push(cells);
  });
  return rows;
}

/**
 * `mapping` (JSON `{ "<column header>": "<field>" }`) applied to a file's rows: a mapped header is replaced by
 * the field's name; a header mapped to "" is a column left out (its cells too). Headers it does not name stay
 * as they are (matched by label or name, as always). 422 when it is not such an object.
 */
export function applyMapping(rows: string[][], mapping: string | undefined): string[][] {
  if (mapping === undefined || mapping.trim() === '' || rows.length === 0) return rows;
  const map = parseMapping(mapping);
  const header = rows[0]!;
  const keep: number[] = [];
  const renamed: string[] = [];
  header.forEach((h, i) => {
    const to = Object.hasOwn(map, h.trim()) ? map[h.trim()]! : h;
    if (to === '') return;
    keep.push(i);
    renamed.push(to);
  });
  return [renamed, ...rows.slice(1).map((cells) => keep.map((i) => cells[i] ?? ''))];
}

function parseMapping(text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badMapping();
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badMapping();
  const entries = Object.entries(value);
  if (entries.length > 1000) throw badMapping();
  for (const [k, v] of entries)
    if (typeof v !== 'string' || k.length > 1000 || v.length > 200) throw badMapping();
  return value as Record<string, string>;
}

/** A cell's value as the text a CSV export writes for it (see readXlsx). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value)
    return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text);
  if ('error' in value) return String(value.error);
  return '';
}

/** A date cell's wall clock: `YYYY-MM-DD` at midnight, else with the time (and milliseconds when any). */
function dateText(date: Date): string {
  const t = date.getTime();
  if (Number.isNaN(t)) return '';
  const iso = date.toISOString();
  if (t % 86_400_000 === 0) return iso.slice(0, 10);
  const ms = iso.slice(20, 23);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${ms === '000' ? '' : `.${ms}`}`;
}

/**
 * Reads the zip's central directory and refuses an archive whose parts would unzip past XLSX_MAX_UNZIPPED,
 * then inflates each part with that ceiling (a directory may lie about sizes): never more than the ceiling
 * in memory, and a 422 rather than a crash for a bomb or a broken archive. ZIP64 is refused (no workbook
 * within the limits needs it).
 */
function checkZip(bytes: Buffer): void {
  const end = findEndOfDirectory(bytes);
  if (end < 0) throw notXlsx();
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  let total = 0;
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw notXlsx();
    const method = bytes.readUInt16LE(at + 10);
    const compressed = bytes.readUInt32LE(at + 20);
    const size = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    if (compressed === 0xffffffff || size === 0xffffffff || local === 0xffffffff) throw notXlsx();
    total += size;
    if (total > XLSX_MAX_UNZIPPED) throw tooLarge();
    inflatedSize(bytes, { method, compressed, local, limit: XLSX_MAX_UNZIPPED - total + size });
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
}

/** Inflates one part within `limit` bytes (422 past it, or when it is broken). */
function inflatedSize(
  bytes: Buffer,
  { method, compressed, local, limit }: { method: number; compressed: number; local: number; limit: number },
): number {
  if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== 0x04034b50) throw notXlsx();
  const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
  if (start + compressed > bytes.length) throw notXlsx();
  const data = bytes.subarray(start, start + compressed);
  if (method === 0) return data.length;
  if (method !== 8) throw notXlsx();
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, limit) }).length;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
    throw notXlsx();
  }
}

/** Where the end-of-central-directory record starts (it may be followed by a comment of up to 64 kB). */
function findEndOfDirectory(bytes: Buffer): number {
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (bytes.readUInt32LE(i) === 0x06054b50) return i;
  return -1;
}

const notXlsx = () => AppError.validation({ file: ['engine.xlsx.not_xlsx'] });
const tooLarge = () =>
  new AppError(422, 'engine.xlsx.too_large', {
    params: { max: XLSX_MAX_UNZIPPED / 1024 / 1024 },
    fields: { file: ['engine.xlsx.too_large'] },
  });
const badMapping = () => AppError.validation({ mapping: ['engine.xlsx.bad_mapping'] });
const tooManyRows = (max: number) =>
  new AppError(422, 'engine.csv.too_many_rows', {
    params: { max },
    fields: { file: ['engine.csv.too_many_rows'] },
  });
