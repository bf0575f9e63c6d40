import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { assets } from '../../../resources/assets.ts';
import { formatBytes } from '../../../schemas/bytes.ts';
import { wireId, wireTime } from '../../../schemas/wire.ts';
import { ok } from '../../core/envelope.ts';
import { wireJson } from '../../core/openapi.ts';
import { permission, rawAnswer, route, unchecked } from '../../core/route.ts';
import { AppError } from '../../core/errors.ts';
import { claimIdempotencyKey, idempotencyKeyOf, Replayed, REPLAYED_HEADER } from '../../core/idempotency.ts';
import { can, requirePermission, requireStaff, type Principal } from '../../core/principal.ts';
import { getSettings } from '../../core/settings.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { actorOf } from '../../core/activity.ts';
import { diffChanges, writeAudit } from '../../engine/write/audit.ts';
import { authorsOf } from '../../engine/write/record-writes.ts';
import { attachment } from '../../engine/csv/export.ts';
import { asSystem } from '../../engine/system-access.ts';
import type { AppModule } from '../../core/app-module.ts';
import { fieldOfQuery, type BoundField } from './fields.ts';
import { ACTIVE_MIME_TYPES, SNIFF_BYTES, extensionForMime, safeFileName, sniff } from './sniff.ts';
import { sendStored } from './download.ts';
import { FileTooLargeError, newStorageKey, type FileStorage } from './storage.ts';

const BASE = `/api/${assets.endpoint}`;
/** Room for the multipart envelope (boundaries, part headers) above the file itself. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** `?field=<resource>.<field>`: the upload (or download) is for a resource's file()/image() field. */
// fieldOfQuery reads it (the field must be a file()/image() field of a served resource).
const FIELD_QUERY = unchecked(
  z.object({
    field: z
      .string()
      .max(200)
      .optional()
      .describe(
        "A resource's file()/image() field, `<resource>.<field>`: uploading needs that resource's .create or " +
          ".update (or its inline parent's) instead of the Files permission, and downloading a file uploaded for " +
          'the field needs its read permission; an image field takes images only.',
      ),
  }),
);
/** A file as the upload answers it. */
const assetSchema = z.object({
  id: wireId,
  name: z.string(),
  size: z.number().int(),
  mime: z.string(),
  created_at: wireTime,
  updated_at: wireTime.optional(),
});
const idParams = z.object({ id: z.string() });
/** The bytes of one file (the body of an upload, the answer of a download). */
const fileBytes = (description: string) => z.string().meta({ format: 'binary' }).describe(description);

/**
 * Files (`v1/resources/assets`): `POST` multipart with one part `file` (size limit from the basic settings,
 * type sniffed from the bytes against an allow-list, staged and renamed into place), `GET <id>/download`
 * (always an attachment, `nosniff`, sandboxed) and `DELETE <id>` (row, audit, then the bytes). The engine
 * serves list, read and export of the same resource. The bytes go through the app's storage (STORAGE: local,
 * postgres or s3; server/storage), or the one given. Example: `createFilesModule({ storage: myStorage })`.
 */
export function createFilesModule({ storage }: { storage?: FileStorage } = {}): AppModule {
  return {
    name: 'files',
    async register(app, ctx) {
      const { db } = ctx;
      const store = storage ?? ctx.storage;
      await app.register(async (scope) => {
        await scope.register(multipart, { limits: { files: 1, fields: 5, parts: 10 } });
        route(scope, {
          method: 'POST',
          url: BASE,
          tags: ['files'],
          summary: 'Upload one file (multipart part `file`)',
          query: FIELD_QUERY,
          // The multipart stream is read by upload() (size limit, sniffed type) after the access checks.
          body: unchecked(z.object({ file: fileBytes('The file (one part)') })),
          openapi: { consumes: ['multipart/form-data'] },
          responses: { 201: assetSchema },
          handler: async ({ request, reply }) =>
            reply.code(201).send(ok(await upload(request, reply, db, store))),
        });
      });
      route(app, {
        method: 'GET',
        url: `${BASE}/:id/download`,
        tags: ['files'],
        summary: 'Download a file (attachment)',
        params: idParams,
        query: FIELD_QUERY,
        // The file's own type (its sniffed MIME type), except types a browser would run (HTML, SVG, XML...),
        // which go as application/octet-stream; always an attachment.
        openapi: { produces: ['*/*'] },
        responses: {
          200: rawAnswer(
            wireJson(
              fileBytes(
                "The file, as the file's own type, or application/octet-stream for types a browser would run",
              ),
            ),
          ),
        },
        handler: async ({ params, query, request, reply }) => {
          const principal = await requireStaff(request);
          const bound = fieldOfQuery(query);
          if (bound) await requireAny(request, bound.readNames);
          else await requirePermission(request, assets.permission);
          const row = await findAsset(db, params.id);
          // Through a field: a file uploaded for it, or any file for a holder of the Files permission.
          const isOpen =
            !bound || can(principal, assets.permission) || (await isUploadedFor(db, row.id, bound));
          if (!isOpen) throw AppError.notFound();
          const isActive = ACTIVE_MIME_TYPES.includes(row.mime);
          return sendStored(request, reply, store, row.storage_key, Number(row.size), {
            'content-type': isActive ? 'application/octet-stream' : row.mime,
            // Rows stored before names were made safe get the same treatment when served.
            'content-disposition': attachment(servedName(row.name, row.mime)),
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
            'cache-control': 'private, no-store',
          });
        },
      });
      route(app, {
        method: 'DELETE',
        url: `${BASE}/:id`,
        tags: ['files'],
        summary: 'Delete a file',
        errors: [409],
        access: permission(`${assets.permission}.delete`),
        params: idParams,
        responses: { 200: null },
        handler: async ({ params, principal, request }) => {
          const actor = actorOf(request, principal.userId);
          const key = await db.transaction(async (tx) => {
            const row = await findAsset(tx, params.id, true);
            await asSystem(tx).remove(assets, { where: { id: row.id } });
            const before = { name: row.name, size: row.size, mime: row.mime };
            const changes = diffChanges(assets, before, null);
            await writeAudit(tx, { resource: assets, action: 'delete', subjectId: row.id, changes, actor });
            return row.storage_key;
          });
          await store.remove(key).catch((error: unknown) => {
            request.log.warn({ err: { type: (error as Error).name } }, 'asset file not removed');
          });
          return ok(null);
        },
      });
    },
  };
}

/** The default module (local directory under DATA_DIR). */
export const filesModule: AppModule = createFilesModule();

interface AssetRow {
  id: string;
  name: string;
  size: number;
  mime: string;
  storage_key: string;
  created_at: Date | string;
}

async function upload(request: FastifyRequest, reply: FastifyReply, db: Db, store: FileStorage) {
  // `?field=products.photo_id`: an upload for a resource's file()/image() field needs a right to write that
  // resource (its .create or .update, or its inline parent's), not the Files page's permission.
  await requireStaff(request);
  const idempotencyKey = idempotencyKeyOf(request);
  const bound = fieldOfQuery(request.query);
  const principal = bound
    ? await requireAny(request, bound.writeNames)
    : await requirePermission(request, `${assets.permission}.create`);
  const { upload_max_size: max } = await getSettings(db, 'basic');
  if (!request.isMultipart()) throw fileRequired();
  if (Number(request.headers['content-length'] ?? 0) > max + MULTIPART_OVERHEAD) throw tooLarge(max);
  const part = await request.file({ limits: { fileSize: max + 1 }, throwFileSizeLimit: false });
  if (!part) throw fileRequired();
  if (part.fieldname !== 'file' || !part.filename) {
    part.file.resume();
    throw fileRequired();
  }
  // A client that goes away mid-body must not leave a half-written file behind.
  const onClose = () => {
    if (!request.raw.complete) part.file.destroy(new Error('upload aborted'));
  };
  request.raw.once('close', onClose);
  const staged = await store
    .stage(part.file, { maxBytes: max, headBytes: SNIFF_BYTES })
    .catch((error: unknown) => {
      if (error instanceof FileTooLargeError) throw tooLarge(max);
      throw error;
    })
    .finally(() => request.raw.off('close', onClose));
  const type = sniff(staged.head, part.filename);
  const problem = part.file.truncated
    ? tooLarge(max)
    : staged.size === 0
      ? fileRequired()
      : !type.ok
        ? AppError.validation({ file: [`settings.files.errors.${type.reason}`] })
        : bound?.kind === 'image' && !type.mime.startsWith('image/')
          ? AppError.validation({ file: ['settings.files.errors.not_image'] })
          : null;
  if (problem || !type.ok) {
    await staged.discard();
    throw problem;
  }
  const key = newStorageKey(type.ext);
  await staged.commit(key);
  const record = { name: displayName(part.filename, type.ext), size: staged.size, mime: type.mime };
  try {
    return await db.transaction(async (tx) => {
      // A retry of an upload that was stored answers that file (core/idempotency.ts).
      const bind = idempotencyKey
        ? await claimIdempotencyKey(tx, { userId: principal.userId, key: idempotencyKey, target: 'assets' })
        : null;
      const actor = actorOf(request, principal.userId);
      // Inserted here rather than by the engine's create: the engine's authors (created_by, updated_by) too.
      const row = await asSystem(tx).insert<{ id: string; created_at: Date }>(
        assets,
        { ...record, storage_key: key, ...authorsOf(actor, true) },
        { returning: ['id', 'created_at'] },
      );
      const id = String(row.id);
      const changes = diffChanges(assets, null, record);
      await writeAudit(tx, { resource: assets, action: 'create', subjectId: id, changes, actor });
      // Who uploaded it: a profile may take as its avatar only its own user's uploads (auth/profile.ts).
      await tx.query('INSERT INTO asset_uploaders (asset_id, user_id) VALUES ($1, $2)', [
        id,
        principal.userId,
      ]);
      if (bound)
        await tx.query('INSERT INTO asset_fields (asset_id, field, created_by) VALUES ($1, $2, $3)', [
          id,
          bound.name,
          principal.userId,
        ]);
      await bind?.(id);
      return { id, ...record, created_at: new Date(row.created_at).toISOString() };
    });
  } catch (error) {
    await store.remove(key);
    if (!(error instanceof Replayed)) throw error;
    reply.header(REPLAYED_HEADER, 'true');
    const { storage_key: _key, ...earlier } = await findAsset(db, error.recordId);
    return { ...earlier, created_at: new Date(earlier.created_at).toISOString() };
  }
}

/** 401/403 unless the caller holds one of `names`. */
async function requireAny(request: FastifyRequest, names: readonly string[]): Promise<Principal> {
  const principal = await requireStaff(request);
  if (!names.some((name) => can(principal, name))) throw AppError.forbidden();
  return principal;
}

/** True when the asset was uploaded through that field (a file from the Files page never is). */
async function isUploadedFor(db: Queryable, assetId: string, bound: BoundField): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM asset_fields WHERE asset_id = $1 AND field = $2', [
    assetId,
    bound.name,
  ]);
  return rows.length > 0;
}

async function findAsset(db: Queryable, id: string, forUpdate = false): Promise<AssetRow> {
  if (!/^\d{1,19}$/.test(id)) throw AppError.notFound();
  const row = await asSystem(db).find<AssetRow>(assets, {
    where: { id },
    columns: ['id', 'name', 'size', 'mime', 'storage_key', 'created_at'],
    lock: forUpdate,
  });
  if (!row) throw AppError.notFound();
  return { ...row, id: String(row.id) };
}

/** The client's name as stored and served (sniff.ts: no path or control characters, the sniffed extension). */
export function displayName(clientName: string, ext: string): string {
  return safeFileName(clientName, ext);
}

function servedName(name: string, mime: string): string {
  const ext = extensionForMime(mime);
  return ext ? safeFileName(name, ext) : name;
}

function fileRequired(): AppError {
  return new AppError(422, 'validation.file_required', { fields: { file: ['validation.file_required'] } });
}

function tooLarge(max: number): AppError {
  return new AppError(413, 'validation.file_limit', {
    params: { limit: formatBytes(max) },
    fields: { file: ['validation.file_too_large'] },
  });
}
