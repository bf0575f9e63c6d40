import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useEffect, useState } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { currentLocale } from '../../i18n/locale.ts';
import { ASSETS_ENDPOINT } from '../../providers/assetsEndpoint.ts';
import { buildUrl } from '../../providers/httpClient.ts';
import { getToken } from '../../providers/token.ts';
import { downloadFile } from '../data/download.ts';

const downloadPath = (id: string) => `${ASSETS_ENDPOINT}/${id}/download`;

/**
 * An object URL of an image asset, fetched with the Bearer token (an `<img src>` could not send it), through
 * the resource field it was uploaded for (`field`, `<resource>.<field>`: the resource's read permission is
 * enough, the Files page's is not needed).
 */
function useImageUrl(id: string | null | undefined, field: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    setUrl(null);
    if (!id) return undefined;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const token = getToken();
    fetch(buildUrl(downloadPath(id), { field }), {
      headers: { 'Accept-Language': currentLocale(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      signal: controller.signal,
      credentials: 'same-origin',
    })
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (!blob || !blob.type.startsWith('image/') || blob.type === 'image/svg+xml') return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id, field]);
  return url;
}

/** The asset itself (also AssetInput's preview): a thumbnail (`image`, `size` px) and a download button. */
export function AssetView({
  id,
  kind,
  size,
  field,
}: {
  id: string;
  kind: 'file' | 'image';
  size: number;
  field: string;
}) {
  const translate = useTranslate();
  const url = useImageUrl(kind === 'image' ? id : null, field);
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      {url ? (
        <img
          src={url}
          alt={translate('engine.upload.preview')}
          width={size}
          height={size}
          style={{ objectFit: 'cover', borderRadius: 4 }}
        />
      ) : null}
      <Button
        size="small"
        onClick={(event) => {
          event.stopPropagation();
          void downloadFile(downloadPath(id), { field }).catch(() => undefined);
        }}
      >
        {translate('engine.upload.download')}
      </Button>
    </Stack>
  );
}

/** A `file()` / `image()` cell or show-page value: thumbnail (images) and download. */
export function AssetField({
  source,
  kind,
  field,
  isListCell,
}: {
  source: string;
  kind: 'file' | 'image';
  /** `<resource>.<field>`: the field the file was uploaded for. */
  field: string;
  isListCell?: boolean;
  label?: string;
  sortable?: boolean;
}) {
  const record = useRecordContext<Record<string, unknown>>();
  const id = record?.[source];
  if (id === null || id === undefined || id === '') return null;
  return <AssetView id={String(id)} kind={kind} field={field} size={isListCell ? 40 : 160} />;
}
