import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useInput } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { DepartmentNode } from '../../../schemas/departments.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { DATA_SCOPES, dataScopeOf } from './roleAccess.ts';

/**
 * A role's data scope (`data_scope`) as radios, and for `custom` the department tree with a checkbox per
 * department (`data_scope_department_ids`). A role without a scope shows `all`; nothing is sent until the
 * user changes it (the form sends changed fields only), so a role saved untouched stays as it was.
 *
 * @example
 * <SimpleForm><DataScopeInput /></SimpleForm>
 */
export function DataScopeInput() {
  const { t } = useTranslation();
  const labelId = useId();
  const scope = useInput<string | undefined>({ source: 'data_scope' });
  const departments = useInput<string[] | undefined>({ source: 'data_scope_department_ids' });
  const current = dataScopeOf(scope.field.value);
  return (
    <FormControl component="fieldset" sx={{ width: '100%', mb: 2 }}>
      <FormLabel component="legend" id={labelId}>
        {t('settings.people.roles.scope.label')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name="data_scope"
        value={current}
        onChange={(event) => scope.field.onChange(event.target.value)}
        sx={{ flexDirection: { xs: 'column', sm: 'row' } }}
      >
        {DATA_SCOPES.map((value) => (
          <FormControlLabel
            key={value}
            value={value}
            control={<Radio size="small" />}
            label={t(`settings.people.roles.scope.${value}`)}
          />
        ))}
      </RadioGroup>
      {current === 'custom' ? (
        <DepartmentChecklist
          value={departments.field.value ?? []}
          onChange={(next) => departments.field.onChange(next)}
        />
      ) : null}
    </FormControl>
  );
}

/** The department tree (`GET v1/user/department/tree`) with a checkbox per department, indented by depth. */
function DepartmentChecklist({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const { t } = useTranslation();
  const { data, isPending } = useQuery({
    queryKey: ['people', 'department-tree'],
    queryFn: () => httpClient<DepartmentNode[]>('v1/user/department/tree'),
  });
  const selected = new Set(value);
  const toggle = (id: string) => onChange(selected.has(id) ? value.filter((v) => v !== id) : [...value, id]);
  const render = (nodes: DepartmentNode[], depth: number) =>
    nodes.map((node) => (
      <Box key={node.id} sx={{ pl: depth * 3 }}>
        <FormControlLabel
          control={<Checkbox size="small" checked={selected.has(node.id)} onChange={() => toggle(node.id)} />}
          label={node.title}
        />
        {render(node.children, depth + 1)}
      </Box>
    ));
  return (
    <Box role="group" aria-label={t('settings.people.roles.scope.departments')} sx={{ pl: 1, pt: 1 }}>
      <FormLabel component="div" sx={{ typography: 'body2' }}>
        {t('settings.people.roles.scope.departments')}
      </FormLabel>
      {isPending ? null : data?.length ? (
        render(data, 0)
      ) : (
        <Box sx={{ typography: 'body2', color: 'text.secondary' }}>
          {t('settings.people.departments.empty')}
        </Box>
      )}
    </Box>
  );
}
