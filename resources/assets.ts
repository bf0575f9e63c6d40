import * as z from 'zod';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineResource, field } from './define.ts';

/**
 * Uploaded files (`v1/resources/assets`, page `/settings/resources`). The engine serves list, read, delete
 * and export; the upload (`POST`, multipart) and the download (`GET <id>/download`) are the files module's.
 * `storage_key` is where the bytes live in the storage backend: generated, never the client's name, and
 * never sent to a client.
 */
export const assets = defineResource({
  name: 'assets',
  endpoint: 'v1/resources/assets',
  // The files module deletes an asset with its bytes (server/modules/files): no trash for them yet.
  softDelete: false,
  permission: PERMISSION.settingsResources,
  schema: z.object({
    name: field(z.string().trim().min(1).max(255), { search: 'like', sort: true, list: true }),
    size: field(z.int().min(0), { search: ['between', '>=', '<='], sort: true, list: true, readOnly: true }),
    mime: field(z.string().max(100), { search: ['=', 'in', 'like'], sort: true, list: true, readOnly: true }),
    storage_key: field(z.string().max(200), { writeOnly: true }),
  }),
  recordRepresentation: 'name',
  operations: ['list', 'read', 'export'],
  // The orphan sweep (server/engine/stored-keys.ts) looks stored keys up 1,000 at a time.
  indexes: [['storage_key']],
});
