import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { parse } from 'csv-parse';
import type ExcelJS from 'exceljs';
import { isFlag } from '../../../resources/flag.ts';
import type { Resource } from '../../../resources/define.ts';
import { getSettings } from '../../core/settings.ts';
import { fieldByName, type FieldInfo } from '../schema/fields.ts';
import type { Lang } from '../labels.ts';
import { excelTimeFormat, parseWallClock } from '../../../schemas/timeFormat.ts';
import type { OperationContext } from '../context.ts';
import { openExport, type CsvExport, type ExportPlan } from './export.ts';

/**
 * Rows written between two looks at the consumers (back-pressure): about 20-60 kB of XML, below the 64 kB the
 * sheet's stream gathers before handing a chunk to the zip.
 */
const ROWS_PER_FLUSH = 100;

/** How an export column becomes a typed cell: the kind of value and the number format shown. */
interface XlsxColumn {
  type: 'text' | 'number' | 'date' | 'datetime';
  numFmt?: string;
  width: number;
}

/**
 * Opens the XLSX of an export: the same columns, rows and labels as the CSV (openExport writes them, so data
 * scope, field access, representations and formula escaping are the CSV's), read back line by line and
 * written as typed cells into one sheet named after the resource's label by exceljs's streaming writer:
 * numbers and money as numbers (money with the site currency's format), dates and times as date cells with a
 * format (times as the wall clock of the site's time zone, as the CSV writes them), everything else (labels
 * of booleans, enums and dictionaries, representations) as text, so a cell is never a formula. A frozen
 * header row, column widths from the labels; a column's number format is set once on the column, never per
 * cell. Every row is committed as it is written, and every `ROWS_PER_FLUSH` rows the writer waits for both
 * consumers: the zip entry of the sheet (its deflate) and `out`'s reader (see `caughtUp`), so memory stays
 * flat whatever the row count. The in-request export and the export job both come through here.
 */
export async function openXlsxExport(
  ctx: Pick<OperationContext, 'db' | 'resource' | 'registry'>,
  lang: Lang,
  plan: ExportPlan,
  options: { onRows?: (done: number) => Promise<void> } = {},
): Promise<CsvExport> {
  // The setting first: once the COPY has started, a failure before `out` is read would hold its connection.
  const currency = await getSettings(ctx.db, 'currency');
  const csv = await openExport(ctx, lang, plan, options);
  const columns = plan.columns.map((name) => xlsxColumn(ctx.resource, name, lang, currency.currency));
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  let rows = 0;
  const write = async () => {
    // exceljs is imported on the first XLSX export, not when the server starts (issue 37 item 3).
    const { default: Excel } = await import('exceljs');
    const workbook = new Excel.stream.xlsx.WorkbookWriter({
      stream: out,
      useSharedStrings: false,
      useStyles: true,
    });
    const sheet = workbook.addWorksheet(sheetName(lang, ctx.resource), {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    const parser = csv.stream.pipe(parse({ bom: true, relax_column_count: true, max_record_size: 1 << 20 }));
    csv.stream.on('error', (error) => parser.destroy(error));
    // The reader went away (a closed response): stop reading the database instead of waiting forever.
    const closed = new Promise<void>((resolve) =>
      out.once('close', () => {
        if (out.writableFinished) return resolve();
        parser.destroy();
        csv.stream.destroy();
        resolve();
      }),
    );
    const styles: Map<ExcelJS.ValueType, Partial<ExcelJS.Style>>[] = [];
    let isHeader = true;
    for await (const record of parser as AsyncIterable<string[]>) {
      if (isHeader) {
        isHeader = false;
        sheet.columns = record.map((label, i) => ({
          header: label,
          width: Math.max(columns[i]!.width, Math.min(40, displayWidth(label) + 2)),
          ...(columns[i]!.numFmt ? { style: { numFmt: columns[i]!.numFmt } } : {}),
        }));
        sheet.getRow(1).font = { bold: true };
        sheet.getRow(1).commit();
        continue;
      }
      const row = sheet.addRow(record.map((cell, i) => typedCell(cell, columns[i])));
      // One style object per column and cell type, shared by every row: exceljs gives each new cell a fresh
      // copy of the column's style, and its style table then renders that copy to XML to find its id (a
      // third of the export's time); a style object it has seen before is looked up by identity instead.
      row.eachCell({ includeEmpty: true }, (cell, n) => {
        const byType = (styles[n - 1] ??= new Map());
        let style = byType.get(cell.type);
        if (!style) byType.set(cell.type, (style = { ...cell.style }));
        cell.style = style;
      });
      row.commit();
      rows++;
      if (rows % ROWS_PER_FLUSH === 0) await caughtUp(sheet, out, closed);
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: Error) => out.destroy(error));
  return { stream: out, rows: () => rows };
}

/**
 * Waits until the sheet's XML has been taken in by the zip and the zip's output by `out`'s reader.
 * exceljs's streaming sheet hands its XML (in 64 kB chunks) to the zip entry's input stream without looking
 * at `write()`'s answer, so that input buffers without bound when rows come faster than deflate takes them
 * (measured: +87 MB per 200k rows, 2k rows/s at 1M rows as the heap grew). The sheet's `stream` (a public
 * getter of the worksheet writer) lists that input in `pipes`; its `needDrain` says it is over its high
 * water mark, and its 'drain' says it has been emptied. Without them (another exceljs), one turn of the
 * event loop per batch. Returns early when `out` is closed (`closed` settles).
 */
async function caughtUp(sheet: ExcelJS.Worksheet, out: PassThrough, closed: Promise<void>): Promise<void> {
  const entry = (sheet as unknown as { stream?: { pipes?: Writable[] } }).stream?.pipes?.[0];
  const state = (entry as { _writableState?: { needDrain?: boolean } } | undefined)?._writableState;
  if (!entry || !state) await new Promise((resolve) => setImmediate(resolve));
  else if (state.needDrain) await Promise.race([once(entry, 'drain'), closed]);
  if (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), closed]);
}

/** `<resource>-YYYYMMDD-HHMMSS.xlsx` from the CSV's name. */
export function xlsxFileName(csvName: string): string {
  return csvName.replace(/\.csv$/, '.xlsx');
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The column's cell type and format by field kind (the system columns: id as text, times as datetimes). */
function xlsxColumn(resource: Resource, name: string, lang: Lang, currency: string): XlsxColumn {
  const f: Pick<FieldInfo, 'kind' | 'meta'> | undefined = fieldByName(resource, name);
  const DATETIME: XlsxColumn = {
    type: 'datetime',
    numFmt: excelTimeFormat(lang.locale, 'datetime'),
    width: 22,
  };
  if (!f) return name === 'id' ? { type: 'text', width: 10 } : DATETIME;
  if (f.meta.money) return { type: 'number', numFmt: moneyFormat(lang, currency), width: 14 };
  if (f.kind === 'number') return { type: 'number', width: 12 };
  if (f.kind === 'int')
    return isFlag(f as FieldInfo) ? { type: 'text', width: 8 } : { type: 'number', width: 10 };
  if (f.kind === 'date') return { type: 'date', numFmt: excelTimeFormat(lang.locale, 'date'), width: 12 };
  if (f.kind === 'datetime') return DATETIME;
  if (f.kind === 'boolean' || f.kind === 'enum') return { type: 'text', width: 10 };
  return { type: 'text', width: f.kind === 'text' || f.kind === 'json' ? 40 : 20 };
}

/** `"¥"#,##0.00` for CNY in zh-CN, `"CN¥"#,##0.00` in en: the symbol as the language writes it. */
function moneyFormat(lang: Lang, currency: string): string {
  let symbol = currency;
  try {
    symbol =
      new Intl.NumberFormat(lang.locale, { style: 'currency', currency })
        .formatToParts(0)
        .find((p) => p.type === 'currency')?.value ?? currency;
  } catch {
    // An unknown code keeps the code itself.
  }
  const quoted = `"${symbol.replace(/"/g, '')}"`;
  return `${quoted}#,##0.00;-${quoted}#,##0.00`;
}

/**
 * A CSV cell as a typed cell: '' is an empty cell; a number, date or time that does not read as one stays
 * text (a dangling reference's id, never lost). Times are the site's wall clock written as if UTC, which is
 * how a spreadsheet's date serial (no zone) shows them.
 */
function typedCell(cell: string, column: XlsxColumn | undefined): string | number | Date | null {
  if (cell === '') return null;
  switch (column?.type) {
    case 'number': {
      const n = Number(cell);
      return Number.isFinite(n) && cell.trim() !== '' ? n : cell;
    }
    case 'date':
    case 'datetime': {
      // The CSV cell is in the language's format (schemas/timeFormat.ts), read back by the shared parser.
      const read = parseWallClock(cell);
      if (!read || read.hasTime !== (column.type === 'datetime')) return cell;
      const v = read.values;
      const ms = read.fraction ? Math.floor(Number(`0.${read.fraction}`) * 1000) : 0;
      return new Date(Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute, v.second, ms));
    }
    default:
      return cell;
  }
}

/** The resource's plural label, as a sheet name may be (31 characters, none of `[]:*?/\`). */
function sheetName(lang: Lang, resource: Resource): string {
  const key = `resources.${resource.name}.name_other`;
  const label = lang.t(key);
  const name = (label === key ? resource.name : label).replace(/[[\]:*?/\\]/g, ' ').trim();
  return name.slice(0, 31) || resource.name.slice(0, 31);
}

/** Columns a label takes (CJK characters count two). */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u1100-\uffff]/.test(ch) ? 2 : 1;
  return width;
}
