import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useId, useState } from 'react';
import { useInput, useTranslate } from 'react-admin';
import { uploadFile } from '../../providers/uploadFile.ts';
import { AssetView } from './AssetField.tsx';

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
