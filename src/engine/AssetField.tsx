import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useEffect, useId, useState } from 'react';
import { useInput, useRecordContext, useTranslate } from 'react-admin';
import { currentLocale } from '../i18n/locale.ts';
import { ASSETS_ENDPOINT, uploadFile } from '../providers/uploadFile.ts';
import { buildUrl } from '../providers/httpClient.ts';
import { getToken } from '../providers/token.ts';
import { downloadFile } from './download.ts';

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

/** The asset itself: a thumbnail (`image`, `size` px) and a download button. */
function AssetView({
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

/**
 * A `file()` / `image()` input: picks a file, uploads it at once (`POST v1/resources/assets?field=<field>`,
 * with a progress bar; the server's size and type rules answer with their message), previews images, and
 * holds the asset's id. Remove clears it.
 */
export function AssetInput({
  source,
  label,
  kind,
  field: bound,
  isRequired,
}: {
  source: string;
  label: string;
  kind: 'file' | 'image';
  /** `<resource>.<field>`: uploads for it need the resource's write permission, not the Files page's. */
  field: string;
  isRequired?: boolean;
}) {
  const translate = useTranslate();
  const inputId = useId();
  const { field, fieldState } = useInput({ source, isRequired });
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const value =
    field.value === null || field.value === undefined || field.value === '' ? null : String(field.value);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const asset = await uploadFile(file, { onProgress: setProgress, field: bound });
      field.onChange(asset.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setProgress(null);
    }
  };
  const message = error ?? (fieldState.error?.message ? translate(fieldState.error.message) : null);
  return (
    <Box sx={{ mb: 2 }}>
      <FormLabel htmlFor={inputId} required={isRequired}>
        {translate(label, { _: source })}
      </FormLabel>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
        {value ? <AssetView id={value} kind={kind} field={bound} size={96} /> : null}
        <Button component="label" size="small" variant="outlined">
          {translate(value ? 'engine.upload.replace' : 'engine.upload.choose')}
          <input
            id={inputId}
            type="file"
            hidden
            accept={kind === 'image' ? 'image/png,image/jpeg,image/gif,image/webp' : undefined}
            onChange={(event) => {
              void pick(event.target.files?.[0]);
              event.target.value = '';
            }}
          />
        </Button>
        {value ? (
          <Button size="small" onClick={() => field.onChange(null)}>
            {translate('engine.upload.remove')}
          </Button>
        ) : null}
      </Stack>
      {progress !== null ? (
        <LinearProgress
          variant="determinate"
          value={Math.round(progress * 100)}
          aria-label={translate('engine.upload.progress')}
          sx={{ mt: 1, maxWidth: 320 }}
        />
      ) : null}
      {message ? <FormHelperText error>{message}</FormHelperText> : null}
    </Box>
  );
}
