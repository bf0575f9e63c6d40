import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { TextInput, useInput, useTranslate, type TextInputProps } from 'react-admin';
import { renderMarkdown } from './renderMarkdown.tsx';

/**
 * A long text written in Markdown: a multi-line box with a Preview toggle. The preview renders a safe subset
 * (headings, lists, paragraphs, **bold**, *italic*, `code`) as React elements, never as HTML.
 */
export function MarkdownInput(props: TextInputProps) {
  const translate = useTranslate();
  const [preview, setPreview] = useState(false);
  const { field } = useInput({ source: props.source });
  return (
    <Box sx={{ width: '100%' }}>
      {preview ? (
        <Box
          role="region"
          aria-label={translate('engine.markdown.preview')}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minHeight: 96 }}
        >
          {renderMarkdown(String(field.value ?? ''))}
        </Box>
      ) : (
        <TextInput {...props} multiline minRows={6} fullWidth />
      )}
      <Button size="small" onClick={() => setPreview((p) => !p)}>
        {translate(preview ? 'engine.markdown.edit' : 'engine.markdown.preview')}
      </Button>
    </Box>
  );
}
