import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { Form, useRecordContext, useTranslate, useTranslateLabel, useUpdate } from 'react-admin';
import type { RaRecord } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import type { FieldValues, Resolver } from 'react-hook-form';
import { resources as registered } from '../../../../resources/index.ts';
import { renderInput } from '../../fields/inputTable.tsx';
import { formPayload } from '../../form/formPayload.ts';
import { findResource, schemaFields } from '../../form/schemaFields.ts';
import { zodResolver } from '../../form/zodResolver.ts';
import type { EditEnd } from './InlineCell.tsx';
import { InlineSchemasContext } from './inlineSchemas.ts';

/**
 * The editor of one list cell: the form's input of the field (the lookup table), checked with the form's own
 * resolver (the server's schema and messages), saved with PATCH over the row's `version`. Enter saves,
 * Escape cancels, Tab saves and moves on. A 409 keeps what was typed, shows the value someone else saved, and
 * the next Enter writes over their version; a 422 shows the field's message under the input. Nothing typed is
 * lost until a save succeeds or the user presses Escape.
 *
 * @example
 * <InlineEditor resource="staff" source="name" onEnd={(end) => ...} />
 */
export function InlineEditor({
  resource: name,
  source,
  onEnd,
}: {
  resource: string;
  source: string;
  onEnd: (end: EditEnd) => void;
}) {
  const registry = useContext(InlineSchemasContext) ?? registered;
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const row = useRecordContext();
  const resource = findResource(name, registry);
  const field = resource ? schemaFields(resource).find((f) => f.name === source) : undefined;
  // The form starts from the row and keeps what is typed; the record saved over changes on a 409.
  const [initial] = useState(() => row);
  const resolver = useMemo<Resolver<FieldValues> | undefined>(() => {
    if (!resource) return undefined;
    const whole = zodResolver({ resource, translate, isEdit: true, registry });
    // Only this field is checked: the other values of the row are not being written.
    return async (values, context, options) => {
      const result = await whole({ [source]: values[source] }, context, options);
      const error = result.errors[source];
      return error ? { values: {}, errors: { [source]: error } } : { values, errors: {} };
    };
  }, [resource, translate, registry, source]);
  if (!resource || !field || !initial) return null;
  // The column's name, as the input's own label words it.
  const label = String(translateLabel({ source, resource: name, label: field.label }));
  return (
    <Form record={initial} resolver={resolver} mode="onSubmit" noValidate>
      <EditorBody
        name={name}
        source={source}
        label={label}
        row={initial}
        onEnd={onEnd}
        toPayload={(values) => formPayload({ resource, values, isEdit: true, registry })}
      >
        {renderInput(field, { resource: name, isEdit: true })}
      </EditorBody>
    </Form>
  );
}

function EditorBody({
  name,
  source,
  label,
  row,
  onEnd,
  toPayload,
  children,
}: {
  name: string;
  source: string;
  label: string;
  row: RaRecord;
  onEnd: (end: EditEnd) => void;
  toPayload: (values: Record<string, unknown>) => Record<string, unknown>;
  children: React.ReactNode;
}) {
  const translate = useTranslate();
  const { handleSubmit, setError } = useFormContext();
  const [update, { isPending }] = useUpdate();
  // The version the next save writes over: the row's, or after a 409 the one someone else saved.
  const base = useRef<RaRecord>(row);
  const [theirs, setTheirs] = useState<RaRecord | null>(null);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current
      ?.querySelector<HTMLElement>('input:not([type="hidden"]), textarea, [role="combobox"], button')
      ?.focus();
  }, []);

  const save = (end: EditEnd) =>
    handleSubmit(async (values) => {
      const payload = toPayload({ [source]: values[source] });
      if (!(source in payload) || same(payload[source], base.current[source])) {
        onEnd(end);
        return;
      }
      try {
        await update(
          name,
          { id: base.current.id, data: payload, previousData: base.current },
          { mutationMode: 'pessimistic', returnPromise: true },
        );
        onEnd(end);
      } catch (error) {
        const body = (error as { body?: { current?: RaRecord; errors?: Record<string, string> } }).body;
        if (body?.current) {
          base.current = body.current;
          setTheirs(body.current);
          return;
        }
        const message =
          body?.errors?.[source] ??
          Object.values(body?.errors ?? {})[0] ??
          translate('engine.inline.failed', {
            message:
              error instanceof Error && error.message
                ? error.message
                : translate('ra.notification.http_error'),
          });
        setError(source, { type: 'server', message });
      }
    })();

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys in a menu the input opened over the page (a select's options) stay there.
    if (!box.current?.contains(event.target as Node)) return;
    event.stopPropagation();
    if (event.defaultPrevented || isPending) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      onEnd('cancelled');
    } else if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      void save('saved');
    } else if (event.key === 'Tab' && !event.shiftKey) {
      event.preventDefault();
      void save('next');
    }
  };

  return (
    <Box
      ref={box}
      role="group"
      aria-label={translate('engine.inline.editing', { field: label })}
      onKeyDown={onKeyDown}
      onClick={(event) => event.stopPropagation()}
      aria-busy={isPending}
      sx={{ minWidth: 160, '& .MuiFormControl-root': { my: 0 } }}
    >
      {children}
      {theirs ? (
        <Typography
          role="alert"
          variant="caption"
          color="warning.main"
          sx={{ display: 'block', maxWidth: 320 }}
        >
          {translate('engine.inline.conflict', { value: shown(theirs[source], translate) })}
        </Typography>
      ) : null}
    </Box>
  );
}

function shown(value: unknown, translate: (key: string) => string): string {
  if (value === null || value === undefined || value === '') return translate('engine.inline.empty');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
