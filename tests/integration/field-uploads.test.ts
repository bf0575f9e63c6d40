import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';
import type { TestApp } from '../helpers/app.ts';
import { TINY_PNG, multipartFile, uploadAsset } from '../helpers/upload.ts';

/**
 * Uploads for a resource's file()/image() field (`?field=<resource>.<field>`) need the right to write that
 * resource, not the Files page's permission, and what was uploaded for the field is downloadable by whoever
 * reads the resource; a file uploaded elsewhere is not reachable that way.
 */
let t: TestApp;
let admin: string;
let writer: string;
let reader: string;
let makerId: string;
const ASSETS = '/api/v1/resources/assets';

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  writer = await staffToken(t, 'gadget-writer', [
    'test.gadgets',
    'test.gadgets.create',
    'test.gadgets.update',
  ]);
  reader = await staffToken(t, 'gadget-reader', ['test.gadgets']);
  const maker = await t.request({
    method: 'POST',
    url: '/api/v1/test/gadget-makers',
    token: admin,
    payload: { name: 'Uploads maker' },
  });
  makerId = maker.json().data.id;
}, 180_000);
afterAll(() => t.close());

const upload = (token: string, query: string, name = 'photo.png', content = TINY_PNG, type = 'image/png') =>
  t.request({ method: 'POST', url: `${ASSETS}${query}`, token, ...multipartFile(name, content, type) });
const assetCount = async () =>
  Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM assets')).rows[0]!.n);

describe('uploads bound to a resource field', () => {
  it('a user granted only the resource uploads its image, saves it and reads it back', async () => {
    expect((await upload(writer, '')).statusCode).toBe(403);
    const photo = await uploadAsset(t, writer, 'photo.png', TINY_PNG, 'image/png', 'gadgets.photo_id');
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/test/gadgets',
      token: writer,
      payload: { name: 'Pictured', sku: 'UPLOAD-1', price: 1, maker_id: makerId, photo_id: photo },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.photo_id).toBe(photo);
    // A reader of the resource downloads it through the field; without the field it is the Files page's.
    const download = await t.request({
      url: `${ASSETS}/${photo}/download?field=gadgets.photo_id`,
      token: reader,
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(TINY_PNG)).toBe(true);
    expect((await t.request({ url: `${ASSETS}/${photo}/download`, token: reader })).statusCode).toBe(403);
    const audit = await t.db.query<{ field: string }>('SELECT field FROM asset_fields WHERE asset_id = $1', [
      photo,
    ]);
    expect(audit.rows.map((r) => r.field)).toEqual(['gadgets.photo_id']);
  });

  it('refuses a reader, a field that is not an upload field and a non-image for an image field', async () => {
    const before = await assetCount();
    expect((await upload(reader, '?field=gadgets.photo_id')).statusCode).toBe(403);
    for (const field of ['gadgets.name', 'nothing.photo_id', 'gadgets.photo_id.x', 'gadgets']) {
      const res = await upload(writer, `?field=${field}`);
      expect(res.statusCode, field).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['field']);
    }
    const text = await t.request({
      method: 'POST',
      url: `${ASSETS}?field=gadgets.photo_id`,
      token: writer,
      headers: { ...multipartFile('x', Buffer.alloc(0)).headers, 'accept-language': 'en' },
      payload: multipartFile('notes.txt', Buffer.from('plain text'), 'text/plain').payload,
    });
    expect(text.statusCode).toBe(422);
    expect(text.json().errors).toEqual({ file: ['Choose an image (PNG, JPEG, GIF or WebP)'] });
    expect(await assetCount()).toBe(before);
    // A file() field takes any allowed type.
    const manual = await upload(
      writer,
      '?field=gadgets.manual_id',
      'notes.txt',
      Buffer.from('read me'),
      'text/plain',
    );
    expect(manual.statusCode, manual.body).toBe(201);
    const anonymous = await t.request({
      method: 'POST',
      url: `${ASSETS}?field=gadgets.photo_id`,
      ...multipartFile('photo.png', TINY_PNG, 'image/png'),
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('a field download reaches only files uploaded for that field', async () => {
    const filesPage = await uploadAsset(t, admin, 'private.png', TINY_PNG, 'image/png');
    const forPhoto = await uploadAsset(t, writer, 'photo.png', TINY_PNG, 'image/png', 'gadgets.photo_id');
    // Pointing a record at a file from the Files page does not open it to the resource's readers.
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/test/gadgets',
      token: writer,
      payload: { name: 'Borrowed', sku: 'UPLOAD-2', price: 1, maker_id: makerId, photo_id: filesPage },
    });
    expect(created.statusCode, created.body).toBe(201);
    for (const [id, field] of [
      [filesPage, 'gadgets.photo_id'],
      [forPhoto, 'gadgets.manual_id'],
    ]) {
      const res = await t.request({ url: `${ASSETS}/${id}/download?field=${field}`, token: reader });
      expect(res.statusCode, `${id} ${field}`).toBe(404);
    }
    // The Files permission still reaches it through the field (the admin's preview of that record).
    const byAdmin = await t.request({
      url: `${ASSETS}/${filesPage}/download?field=gadgets.photo_id`,
      token: admin,
    });
    expect(byAdmin.statusCode).toBe(200);
    const anonymous = await t.request({ url: `${ASSETS}/${forPhoto}/download?field=gadgets.photo_id` });
    expect(anonymous.statusCode).toBe(401);
  });
});
