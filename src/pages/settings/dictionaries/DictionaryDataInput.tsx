import { ArrayInput, BooleanInput, SimpleFormIterator, TextInput } from 'react-admin';

/**
 * The entries of a dictionary, edited inline on the type's form: one row per entry with label, its English
 * translation, value, enabled switch and memo; rows can be added, removed and reordered. Empty labels or values are refused by
 * the resource's zod schema with "Dictionary data label or value cannot be empty" (client and server alike).
 *
 * @example
 * <SimpleForm resolver={resolver}><DictionaryDataInput /></SimpleForm>
 */
export function DictionaryDataInput() {
  return (
    <ArrayInput source="data" label="resources.dictionaries.fields.data">
      <SimpleFormIterator inline disableClear fullWidth>
        <TextInput source="label" label="resources.dictionaries.fields.data_label" helperText={false} />
        {/* The label shown to English users (the default language's is `label`); empty: `label` is used. */}
        <TextInput
          source="labels.en"
          label="resources.dictionaries.fields.data_label_en"
          helperText={false}
          parse={(value: string) => value}
        />
        <TextInput source="value" label="resources.dictionaries.fields.data_value" helperText={false} />
        <BooleanInput
          source="state"
          label="resources.dictionaries.fields.data_state"
          defaultValue
          helperText={false}
        />
        <TextInput
          source="memo"
          label="resources.dictionaries.fields.data_memo"
          helperText={false}
          defaultValue=""
          parse={(value: string) => value}
        />
      </SimpleFormIterator>
    </ArrayInput>
  );
}
