import { AutocompleteInput, ReferenceInput } from 'react-admin';

/**
 * A reference's input when the target is not a tree: an autocomplete over the target's records. Its own
 * module, so react-admin's and MUI's Autocomplete download only with the first input that shows it
 * (BelongsToInput.tsx; a list's department filter is a tree picker and never needs it).
 */
export function ReferenceAutocomplete({
  source,
  resource,
  reference,
  label,
  isRequired,
  alwaysOn,
}: {
  source: string;
  resource: string;
  reference: string;
  label?: string;
  isRequired: boolean;
  alwaysOn?: boolean;
}) {
  // The child input carries the label and the required mark (ReferenceInput does not pass them on).
  return (
    <ReferenceInput source={source} reference={reference} label={label} alwaysOn={alwaysOn}>
      <AutocompleteInput label={label} resource={resource} isRequired={isRequired} />
    </ReferenceInput>
  );
}
