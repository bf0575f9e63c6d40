import InsertDriveFileOutlinedIcon from '@mui/icons-material/InsertDriveFileOutlined';
import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';
import { useRecordContext } from 'react-admin';
import { currentLocale } from '../../../i18n/locale.ts';
import { buildUrl } from '../../../providers/httpClient.ts';
import { getToken } from '../../../providers/token.ts';
import { ASSETS_ENDPOINT, type Asset } from '../../../providers/uploadFile.ts';

/** Raster images get a thumbnail; everything else (SVG included, never rendered) an icon. */
const THUMBNAIL_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);
const SIZE = 40;

/**
 * A list cell with the image itself, fetched with the Bearer token (an `<img src>` could not send it) and
 * shown from an object URL that is released when the row goes away.
 */
export function AssetThumbnail({ label: _label }: { label?: string }) {
  const record = useRecordContext<Asset>();
  const [url, setUrl] = useState<string | null>(null);
  const isImage = record ? THUMBNAIL_TYPES.has(record.mime) : false;
  useEffect(() => {
    if (!record || !isImage) return undefined;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    const token = getToken();
    fetch(buildUrl(`${ASSETS_ENDPOINT}/${record.id}/download`), {
      headers: {
        'Accept-Language': currentLocale(),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      signal: controller.signal,
      credentials: 'same-origin',
    })
      .then((response) => (response.ok ? response.blob() : null))
      .then((blob) => {
        if (!blob) return;
        // The server labels bytes by the sniffed type; keep that type for the image decoder.
        objectUrl = URL.createObjectURL(new Blob([blob], { type: record.mime }));
        setUrl(objectUrl);
      })
      .catch(() => undefined);
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [record, isImage]);
  if (!record) return null;
  return (
    <Box sx={{ width: SIZE, height: SIZE, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      {isImage && url ? (
        <img
          src={url}
          alt={record.name}
          width={SIZE}
          height={SIZE}
          style={{ objectFit: 'cover', borderRadius: 4 }}
        />
      ) : (
        <InsertDriveFileOutlinedIcon color="action" aria-hidden />
      )}
    </Box>
  );
}
