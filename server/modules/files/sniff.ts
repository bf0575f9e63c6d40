/**
 * Decides a file's type from its first bytes (magic numbers), never from the client's name or header, and
 * only within the allow-list below. The client's extension must agree with what the bytes say (a PDF named
 * `photo.png` is refused). Example: `sniff(head, 'report.pdf')` -> `{ ok: true, mime: 'application/pdf', ext: 'pdf' }`.
 */
export type SniffResult =
  { ok: true; mime: string; ext: string } | { ok: false; reason: 'not_allowed' | 'mismatch' };

/** Bytes the sniffer looks at. */
export const SNIFF_BYTES = 4096;

interface Kind {
  mime: string;
  /** The stored file's extension. */
  ext: string;
  /** Extensions a client name may carry for this kind. */
  exts: readonly string[];
}

const K = {
  png: { mime: 'image/png', ext: 'png', exts: ['png'] },
  jpeg: { mime: 'image/jpeg', ext: 'jpg', exts: ['jpg', 'jpeg', 'jfif'] },
  gif: { mime: 'image/gif', ext: 'gif', exts: ['gif'] },
  webp: { mime: 'image/webp', ext: 'webp', exts: ['webp'] },
  bmp: { mime: 'image/bmp', ext: 'bmp', exts: ['bmp'] },
  svg: { mime: 'image/svg+xml', ext: 'svg', exts: ['svg'] },
  pdf: { mime: 'application/pdf', ext: 'pdf', exts: ['pdf'] },
  zip: { mime: 'application/zip', ext: 'zip', exts: ['zip'] },
  docx: {
    mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ext: 'docx',
    exts: ['docx'],
  },
  xlsx: {
    mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ext: 'xlsx',
    exts: ['xlsx'],
  },
  pptx: {
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ext: 'pptx',
    exts: ['pptx'],
  },
  doc: { mime: 'application/msword', ext: 'doc', exts: ['doc'] },
  xls: { mime: 'application/vnd.ms-excel', ext: 'xls', exts: ['xls'] },
  ppt: { mime: 'application/vnd.ms-powerpoint', ext: 'ppt', exts: ['ppt'] },
  csv: { mime: 'text/csv', ext: 'csv', exts: ['csv'] },
  txt: { mime: 'text/plain', ext: 'txt', exts: ['txt', 'text', 'log', 'md'] },
} satisfies Record<string, Kind>;

/** Types a browser could run (scripts in SVG): served with a sandbox policy, as attachments only. */
export const ACTIVE_MIME_TYPES: readonly string[] = [K.svg.mime];

/** Magic numbers -> kind, checked in order. */
const SIGNATURES: { test: (b: Buffer) => boolean; kind: Kind | ((b: Buffer, ext: string) => Kind) }[] = [
  { test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), kind: K.png },
  { test: (b) => starts(b, [0xff, 0xd8, 0xff]), kind: K.jpeg },
  { test: (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a', kind: K.gif },
  { test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP', kind: K.webp },
  { test: (b) => ascii(b, 0, 2) === 'BM' && b.length >= 26 && b.readUInt32LE(14) >= 12, kind: K.bmp },
  { test: (b) => ascii(b, 0, 5) === '%PDF-', kind: K.pdf },
  { test: (b) => starts(b, [0x50, 0x4b, 0x03, 0x04]) || starts(b, [0x50, 0x4b, 0x05, 0x06]), kind: zipKind },
  { test: (b) => starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), kind: oleKind },
];

export function sniff(head: Buffer, clientName: string): SniffResult {
  const ext = extensionOf(clientName);
  const signature = SIGNATURES.find((s) => s.test(head));
  const kind = signature
    ? typeof signature.kind === 'function'
      ? signature.kind(head, ext)
      : signature.kind
    : textKind(head, ext);
  if (!kind) return { ok: false, reason: 'not_allowed' };
  const claimed = Object.values(K).find((k) => (k.exts as readonly string[]).includes(ext));
  // A known extension must name the same kind; text files may carry any text extension.
  const isTextPair = claimed && isText(claimed) && isText(kind);
  if (claimed && claimed !== kind && !isTextPair) return { ok: false, reason: 'mismatch' };
  return { ok: true, mime: kind.mime, ext: kind.ext };
}

/** The extensions a stored extension's kind accepts (`jpg` -> jpg, jpeg, jfif); [] for an unknown one. */
export function extensionsOf(ext: string): readonly string[] {
  return Object.values(K).find((k) => k.ext === ext)?.exts ?? [];
}

/** The stored extension of an allowed type (`image/png` -> `png`), or null. */
export function extensionForMime(mime: string): string | null {
  return Object.values(K).find((k) => k.mime === mime)?.ext ?? null;
}

/** Control, format (bidi overrides and isolates, zero-width), line and paragraph separator characters. */
const UNSAFE_NAME_CHARS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * The name a file is stored and served under: the client's name without its path, control and bidi
 * characters, at most 200 characters, and ending in the sniffed type's extension (one of its accepted
 * spellings is kept; anything else gets `.<ext>` appended, so PNG bytes sent as `report.html` become
 * `report.html.png`). Example: `safeFileName('invoice\u202egnp.exe', 'pdf')` -> `invoicegnp.exe.pdf`.
 */
export function safeFileName(clientName: string, ext: string): string {
  const base = (clientName.split(/[\\/]/).pop() ?? '').normalize('NFC').replace(UNSAFE_NAME_CHARS, '').trim();
  const isRightType = base !== '' && extensionsOf(ext).includes(extensionOf(base));
  const named = isRightType ? base : `${base.replace(/\.+$/, '') || 'file'}.${ext}`;
  // Trim from the front so the extension survives.
  return named.length > 200 ? named.slice(-200) : named;
}

/** Lower-case extension of a client file name, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** OOXML documents are zip files; the extension picks which one, the first entries must agree. */
function zipKind(head: Buffer, ext: string): Kind {
  const text = head.toString('latin1');
  const isOoxml = text.includes('[Content_Types].xml') || /(word|xl|ppt)\//.test(text);
  const office = { docx: K.docx, xlsx: K.xlsx, pptx: K.pptx }[ext];
  return isOoxml && office ? office : K.zip;
}

/** Legacy Office files share the OLE2 container; only .doc/.xls/.ppt names are accepted. */
function oleKind(_head: Buffer, ext: string): Kind {
  return { doc: K.doc, xls: K.xls, ppt: K.ppt }[ext] ?? K.doc;
}

/** UTF-8 text without NUL bytes; HTML (and other markup) is never allowed, SVG is an image. */
function textKind(head: Buffer, ext: string): Kind | null {
  if (head.length === 0 || head.includes(0)) return null;
  const text = decodeUtf8(head);
  if (text === null) return null;
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 512)
    .toLowerCase();
  if (/^<(\?xml|svg)/.test(start) && /<svg[\s>]/.test(text.toLowerCase())) return K.svg;
  if (/^<(!doctype|html|head|body|script|iframe|\?xml|!--)/.test(start)) return null;
  if (/<script[\s>]|<html[\s>]/i.test(text)) return null;
  return ext === 'csv' ? K.csv : K.txt;
}

function isText(kind: Kind): boolean {
  return kind === K.csv || kind === K.txt;
}

/** Decodes UTF-8; a character cut at the end of the sniffed window is not an error. */
function decodeUtf8(head: Buffer): string | null {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= 3 && cut < head.length; cut++) {
    try {
      return decoder.decode(head.subarray(0, head.length - cut));
    } catch {
      if (head.length < SNIFF_BYTES) return null;
    }
  }
  return null;
}

function starts(b: Buffer, bytes: number[]): boolean {
  return b.length >= bytes.length && bytes.every((x, i) => b[i] === x);
}

function ascii(b: Buffer, from: number, to: number): string {
  return b.length >= to ? b.toString('latin1', from, to) : '';
}
