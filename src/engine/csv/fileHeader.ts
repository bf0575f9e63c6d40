/**
 * The header row of a file the user picked for import, read in the browser for the mapping step: a CSV's
 * first record, or the first row of an .xlsx's first sheet (read from the zip with the browser's own
 * DecompressionStream, only as far as that row). The server reads the whole file again; this only names the
 * columns. Example: `const headers = await readFileHeader(file)`.
 */
export async function readFileHeader(file: Blob): Promise<string[]> {
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  const isZip = head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  return isZip
    ? xlsxHeader(new Uint8Array(await file.arrayBuffer()))
    : csvHeader(await file.slice(0, 1 << 16).text());
}

/** The first record of a CSV (quotes, doubled quotes and line breaks inside quotes), BOM dropped. */
export function csvHeader(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let isQuoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (isQuoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') isQuoted = false;
      else cell += c;
    } else if (c === '"') isQuoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') break;
    else cell += c;
  }
  cells.push(cell);
  return trimEnd(cells);
}

interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  offset: number;
}

async function xlsxHeader(bytes: Uint8Array): Promise<string[]> {
  const entries = zipEntries(bytes);
  const sheet =
    entries.find((e) => e.name === 'xl/worksheets/sheet1.xml') ??
    entries.find((e) => /^xl\/worksheets\/[^/]+\.xml$/.test(e.name));
  if (!sheet) return [];
  const xml = await inflate(bytes, sheet, '</row>');
  const row = /<row\b[^>]*>([\s\S]*?)<\/row>/.exec(xml)?.[1] ?? '';
  const shared = entries.find((e) => e.name === 'xl/sharedStrings.xml');
  let strings: string[] | null = null;
  const cells: string[] = [];
  for (const m of row.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
    const attrs = m[1] ?? '';
    const body = m[2] ?? '';
    const column = columnIndex(/\br="([A-Z]+)\d+"/.exec(attrs)?.[1]) ?? cells.length;
    const type = /\bt="(\w+)"/.exec(attrs)?.[1];
    let text = '';
    if (type === 's' && shared) {
      strings ??= sharedStrings(await inflate(bytes, shared));
      text = strings[Number(/<v>([^<]*)<\/v>/.exec(body)?.[1])] ?? '';
    } else if (type === 'inlineStr') text = textOf(body);
    else text = unescapeXml(/<v>([^<]*)<\/v>/.exec(body)?.[1] ?? '');
    while (cells.length < column) cells.push('');
    cells[column] = text;
  }
  return trimEnd(cells);
}

/** The zip's central directory (where each part is and how it is stored). */
function zipEntries(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--)
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  if (end < 0) return [];
  const entries: ZipEntry[] = [];
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  for (let n = view.getUint16(end + 10, true); n > 0 && at + 46 <= bytes.length; n--) {
    if (view.getUint32(at, true) !== 0x02014b50) break;
    const nameLength = view.getUint16(at + 28, true);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      offset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** A part's text, inflated only until `until` appears (when given). */
async function inflate(bytes: Uint8Array, entry: ZipEntry, until?: string): Promise<string> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start =
    entry.offset + 30 + view.getUint16(entry.offset + 26, true) + view.getUint16(entry.offset + 28, true);
  const data = bytes.slice(start, start + entry.compressed);
  if (entry.method === 0) return new TextDecoder().decode(data);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
    if (until && text.includes(until)) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return text;
}

function sharedStrings(xml: string): string[] {
  return [...xml.matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) => textOf(m[1] ?? ''));
}

/** The text runs of a string item (`<t>` elements, rich text included). */
function textOf(xml: string): string {
  return [...xml.matchAll(/<t\b[^>]*>([^<]*)<\/t>/g)].map((m) => unescapeXml(m[1] ?? '')).join('');
}

function unescapeXml(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' };
    if (named[e]) return named[e];
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
}

/** `A` -> 0, `AB` -> 27. */
function columnIndex(letters: string | undefined): number | undefined {
  if (!letters) return undefined;
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function trimEnd(cells: string[]): string[] {
  while (cells.length && cells[cells.length - 1]!.trim() === '') cells.pop();
  return cells;
}
