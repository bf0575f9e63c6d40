import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslate } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import { schemaFields } from './schemaFields.ts';

/** What a stale save left: the values the user typed and the record as someone else saved it. */
export interface Conflict {
  mine: Record<string, unknown>;
  theirs: Record<string, unknown>;
}

/**
 * Inside the edit form after a save answered 409 (a stale version): for every field whose typed value differs
 * from the record someone else saved, "yours" and "theirs" side by side with a choice per field. The form
 * already holds the current record with the user's own edits kept (ResourceEdit resets with
 * `keepDirtyValues`), and the next save writes over the current version; nothing typed is lost.
 *
 * @example
 * {conflict && <VersionConflict resource={resource} conflict={conflict} />}
 */
export function VersionConflict({ resource, conflict }: { resource: Resource; conflict: Conflict }) {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const values = useWatch() as Record<string, unknown>;
  const fields = schemaFields(resource).filter(
    (f) => !f.meta.writeOnly && !f.meta.readOnly && f.name in conflict.mine,
  );
  const differing = fields.filter((f) => !same(conflict.mine[f.name], conflict.theirs[f.name]));
  const show = (value: unknown) => (isBlank(value) ? translate('engine.versions.empty') : display(value));
  return (
    <Alert severity="warning" role="alert" sx={{ mb: 2, width: '100%' }} data-testid="version-conflict">
      <AlertTitle>{translate('engine.versions.conflict_title')}</AlertTitle>
      {translate('engine.versions.conflict_notice')}
      {differing.length === 0 ? (
        <p>{translate('engine.versions.no_differences')}</p>
      ) : (
        <Table size="small" sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('engine.versions.field')}</TableCell>
              <TableCell>{translate('engine.versions.yours')}</TableCell>
              <TableCell>{translate('engine.versions.theirs')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {differing.map((f) => {
              const label = translate(`resources.${resource.name}.fields.${f.name}`, { _: f.name });
              const mine = conflict.mine[f.name];
              const theirs = conflict.theirs[f.name];
              const isMine = same(values[f.name], mine);
              const isTheirs = same(values[f.name], theirs);
              return (
                <TableRow key={f.name} data-field={f.name}>
                  <TableCell component="th" scope="row">
                    {label}
                  </TableCell>
                  <TableCell>{show(mine)}</TableCell>
                  <TableCell>{show(theirs)}</TableCell>
                  <TableCell>
                    <ButtonGroup size="small" aria-label={label}>
                      <Button
                        variant={isMine ? 'contained' : 'outlined'}
                        aria-pressed={isMine}
                        onClick={() => setValue(f.name, mine, { shouldDirty: true })}
                      >
                        {translate('engine.versions.keep_yours')}
                      </Button>
                      <Button
                        variant={isTheirs ? 'contained' : 'outlined'}
                        aria-pressed={isTheirs}
                        onClick={() => setValue(f.name, theirs, { shouldDirty: true })}
                      >
                        {translate('engine.versions.take_theirs')}
                      </Button>
                    </ButtonGroup>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Alert>
  );
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length);
}

function same(a: unknown, b: unknown): boolean {
  if (isBlank(a) && isBlank(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

function display(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  return JSON.stringify(value);
}
