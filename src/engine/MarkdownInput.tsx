import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { Fragment, useState, type ReactNode } from 'react';
import { TextInput, useInput, useTranslate, type TextInputProps } from 'react-admin';

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

/** Markdown (a safe subset) -> React elements. */
export function renderMarkdown(text: string): ReactNode {
  const blocks = text.replace(/\r\n/g, '\n').split(/\n{2,}/);
  return blocks.map((block, i) => {
    const lines = block.split('\n');
    const heading = /^(#{1,6})\s+(.*)$/.exec(block);
    if (heading && lines.length === 1) {
      const level = Math.min(heading[1]!.length + 2, 6);
      const Tag = `h${level}` as 'h3';
      return <Tag key={i}>{inline(heading[2]!)}</Tag>;
    }
    if (lines.every((l) => /^\s*[-*]\s+/.test(l)))
      return (
        <ul key={i}>
          {lines.map((l, j) => (
            <li key={j}>{inline(l.replace(/^\s*[-*]\s+/, ''))}</li>
          ))}
        </ul>
      );
    return (
      <p key={i}>
        {lines.map((l, j) => (
          <Fragment key={j}>
            {j > 0 ? <br /> : null}
            {inline(l)}
          </Fragment>
        ))}
      </p>
    );
  });
}

function inline(text: string): ReactNode[] {
  return text.split(/(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)/g).map((part, i) => {
    if (/^\*\*[^*]+\*\*$/.test(part)) return <strong key={i}>{part.slice(2, -2)}</strong>;
    if (/^\*[^*]+\*$/.test(part)) return <em key={i}>{part.slice(1, -1)}</em>;
    if (/^`[^`]+`$/.test(part)) return <code key={i}>{part.slice(1, -1)}</code>;
    return part;
  });
}
