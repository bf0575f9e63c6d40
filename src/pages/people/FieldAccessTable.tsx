import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Radio from '@mui/material/Radio';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Resource } from '../../../resources/define.ts';
import { FIELD_LEVELS, levelOf, restrictableFields, withLevel, type RoleFieldAccess } from './roleAccess.ts';

/**
 * Under a page of the role editor's permission tree: a button that opens the table of the page's fields,
 * one row per field with a radio for writable / read-only / hidden (`field_access` of the role, keyed
 * `<resource>.<field>`). The radios of a row share a name, so arrow keys move between its levels. The button
 * says how many fields are restricted.
 *
 * @example
 * <FieldAccessTable resource={staff} value={fieldAccess} onChange={setFieldAccess} />
 */
export function FieldAccessTable({
  resource,
  value,
  onChange,
}: {
  resource: Resource;
  value: RoleFieldAccess;
  onChange: (next: RoleFieldAccess) => void;
}) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  const tableId = useId();
  const fields = restrictableFields(resource);
  const restricted = fields.filter((f) => levelOf(value, `${resource.name}.${f}`) !== 'write').length;
  const fieldLabel = (field: string) =>
    t(`resources.${resource.name}.fields.${field}`, { defaultValue: field });
  const resourceLabel = t(`resources.${resource.name}.name`, { count: 2, defaultValue: resource.name });
  return (
    <Box sx={{ pl: 3, pb: 1 }}>
      <Button
        size="small"
        aria-expanded={isOpen}
        aria-controls={tableId}
        onClick={() => setIsOpen((open) => !open)}
      >
        {t('settings.people.roles.field_access.toggle', { resource: resourceLabel, restricted })}
      </Button>
      {isOpen ? (
        <Box id={tableId} sx={{ overflowX: 'auto', maxWidth: '100%' }}>
          <Table
            size="small"
            aria-label={t('settings.people.roles.field_access.caption', { resource: resourceLabel })}
          >
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.people.roles.field_access.field')}</TableCell>
                {FIELD_LEVELS.map((level) => (
                  <TableCell key={level} align="center">
                    {t(`settings.people.roles.field_access.${level}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {fields.map((field) => {
                const key = `${resource.name}.${field}`;
                const current = levelOf(value, key);
                return (
                  <TableRow key={field}>
                    <TableCell component="th" scope="row">
                      {fieldLabel(field)}
                    </TableCell>
                    {FIELD_LEVELS.map((level) => (
                      <TableCell key={level} align="center" padding="checkbox">
                        <Radio
                          size="small"
                          name={key}
                          value={level}
                          checked={current === level}
                          onChange={() => onChange(withLevel(value, key, level))}
                          inputProps={{
                            'aria-label': `${fieldLabel(field)}: ${t(`settings.people.roles.field_access.${level}`)}`,
                          }}
                        />
                      </TableCell>
                    ))}
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Box>
      ) : null}
    </Box>
  );
}
