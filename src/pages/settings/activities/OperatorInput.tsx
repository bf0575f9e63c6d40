import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { AutocompleteInput } from 'react-admin';
import { httpClient } from '../../../providers/httpClient.ts';

interface Operator {
  id: string;
  username: string;
  name: string | null;
}

/**
 * The activity log's operator filter: people who appear in the log, searched by username or name through
 * `GET v1/user/logs/operators` (the log's own permission, so it works without access to the users page).
 * The chosen operator stays among the choices while another search runs.
 */
export function OperatorInput({ source, label }: { source: string; label: string; alwaysOn?: boolean }) {
  const [search, setSearch] = useState('');
  const selected = useWatch({ name: source }) as string | undefined;
  const { data = [], isFetching } = useQuery({
    queryKey: ['activity-operators', search, selected ?? null],
    queryFn: ({ signal }) =>
      httpClient<Operator[]>('v1/user/logs/operators', {
        query: { q: search, id: selected || undefined },
        signal,
      }),
    placeholderData: (previous) => previous,
  });
  return (
    <AutocompleteInput
      source={source}
      label={label}
      choices={data}
      optionText={(o: Operator) => (o.name ? `${o.name} (${o.username})` : o.username)}
      setFilter={setSearch}
      isPending={isFetching && data.length === 0}
    />
  );
}
