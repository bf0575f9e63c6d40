import Typography from '@mui/material/Typography';
import {
  ArrayInput,
  AutocompleteArrayInput,
  BooleanInput,
  PasswordInput,
  ReferenceArrayInput,
  ResourceContextProvider,
  SimpleFormIterator,
  TextInput,
  useSourceContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';

const label = (key: string) => `settings.general.oidc.${key}`;

/**
 * The `login.oidc_providers` editor (issue 31): one block per OpenID Connect provider. The client secret is
 * write-only: it starts blank, says whether one is stored, and a blank one keeps the stored value. Each block
 * shows the callback address to register at the provider.
 *
 * @example
 * <OidcProvidersInput source="oidc_providers" />
 */
export function OidcProvidersInput({ source }: { source: string }) {
  const translate = useTranslate();
  // The general settings page is no resource's page; the iterator's items need one to name their inputs.
  return (
    <ResourceContextProvider value="settings">
      <ArrayInput source={source} label={`settings.general.fields.${source}`}>
        <SimpleFormIterator
          inline={false}
          disableReordering
          sx={{ '& .RaSimpleFormIterator-line': { pb: 2 } }}
        >
          <TextInput source="id" label={label('id')} helperText={false} />
          <CallbackAddress />
          <TextInput source="label" label={label('label')} helperText={false} />
          <TextInput source="issuer" label={label('issuer')} helperText={false} />
          <TextInput source="client_id" label={label('client_id')} helperText={false} />
          <SecretInput translate={translate} />
          <TextInput
            source="scopes"
            label={label('scopes')}
            helperText={false}
            format={(value: unknown) => (Array.isArray(value) ? value.join(' ') : '')}
            parse={(text: string) => text.split(/\s+/).filter(Boolean)}
          />
          <TextInput source="claim_username" label={label('claim_username')} helperText={false} />
          <BooleanInput source="auto_create" label={label('auto_create')} helperText={false} />
          <ReferenceArrayInput source="default_role_ids" reference="roles">
            <AutocompleteArrayInput label={label('default_role_ids')} helperText={false} />
          </ReferenceArrayInput>
        </SimpleFormIterator>
      </ArrayInput>
    </ResourceContextProvider>
  );
}

/** The provider's client secret: blank keeps the stored one (`client_secret_set` says whether there is one). */
function SecretInput({ translate }: { translate: (key: string) => string }) {
  const isSet = useWatch({ name: useItemName('client_secret_set') }) === true;
  return (
    <PasswordInput
      source="client_secret"
      label={label('client_secret')}
      autoComplete="new-password"
      helperText={translate(isSet ? 'settings.general.secret_set' : 'settings.general.secret_not_set')}
    />
  );
}

/** The redirect URI of this block's provider, as the provider must list it. */
function CallbackAddress() {
  const translate = useTranslate();
  const id = useWatch({ name: useItemName('id') }) as unknown;
  if (typeof id !== 'string' || !id) return null;
  const url = `${window.location.origin}/api/v1/oidc/${encodeURIComponent(id)}/callback`;
  return (
    <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
      {translate(label('callback'), { url })}
    </Typography>
  );
}

/** The full form name of a key of the current iterator item (`oidc_providers.0.id`). */
function useItemName(key: string): string {
  return useSourceContext().getSource(key);
}
