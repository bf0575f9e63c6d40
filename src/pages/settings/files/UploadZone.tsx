import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { uploadFile, type Asset } from '../../../providers/uploadFile.ts';

interface Pending {
  key: string;
  name: string;
  progress: number;
  error?: string;
}

/**
 * Drop files here or pick them (several at once); each uploads with its own progress bar, and a failed one
 * shows the server's reason in place. Calls `onUploaded` once the batch is done.
 *
 * @example
 * <UploadZone onUploaded={() => refresh()} />
 */
export function UploadZone({ onUploaded }: { onUploaded: (assets: Asset[]) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState<Pending[]>([]);
  const [isOver, setIsOver] = useState(false);

  const update = (key: string, patch: Partial<Pending>) =>
    setPending((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));

  const start = async (files: File[]) => {
    if (files.length === 0) return;
    const batch = files.map((file, i) => ({ file, key: `${Date.now()}-${i}-${file.name}` }));
    setPending((list) => [
      ...list.filter((p) => p.error),
      ...batch.map(({ key, file }) => ({ key, name: file.name, progress: 0 })),
    ]);
    const results = await Promise.all(
      batch.map(async ({ file, key }) => {
        try {
          const asset = await uploadFile(file, { onProgress: (progress) => update(key, { progress }) });
          setPending((list) => list.filter((p) => p.key !== key));
          return asset;
        } catch (error) {
          update(key, { error: (error as Error).message });
          return null;
        }
      }),
    );
    const done = results.filter((a): a is Asset => a !== null);
    if (done.length) {
      notify('settings.files.uploaded', { type: 'success' });
      onUploaded(done);
    }
    if (input.current) input.current.value = '';
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setIsOver(false);
    void start([...event.dataTransfer.files]);
  };

  return (
    <Box sx={{ mb: 2 }}>
      <Box
        data-testid="upload-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setIsOver(true);
        }}
        onDragLeave={() => setIsOver(false)}
        onDrop={onDrop}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: isOver ? 'primary.main' : 'divider',
          borderRadius: 2,
          p: 3,
          textAlign: 'center',
          bgcolor: isOver ? 'action.hover' : 'transparent',
        }}
      >
        <CloudUploadIcon color="action" fontSize="large" />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate('settings.files.drop_here')}
        </Typography>
        <Button variant="contained" component="label" htmlFor={inputId}>
          {translate('settings.files.choose')}
        </Button>
        <input
          id={inputId}
          ref={input}
          type="file"
          multiple
          hidden
          aria-label={translate('settings.files.choose')}
          onChange={(event) => void start([...(event.target.files ?? [])])}
        />
      </Box>
      {pending.map((p) => (
        <Box key={p.key} sx={{ mt: 1 }} role="status" aria-label={p.name}>
          <Typography variant="body2" color={p.error ? 'error' : 'text.primary'}>
            {p.name}
            {p.error ? ` — ${p.error}` : ` ${Math.round(p.progress * 100)}%`}
          </Typography>
          {p.error ? null : <LinearProgress variant="determinate" value={p.progress * 100} />}
        </Box>
      ))}
    </Box>
  );
}
