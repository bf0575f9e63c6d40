import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { GROUPS } from './groupFields.ts';
import { SettingsGroupForm } from './SettingsGroupForm.tsx';

/**
 * `/settings` (needs `system.settings`): one tab per settings group of the contract (basic, sms, login,
 * site, country, currency, languages, level, message), each its own form.
 */
export function GeneralSettingsPage() {
  const translate = useTranslate();
  const [group, setGroup] = useState<(typeof GROUPS)[number]>('basic');
  return (
    <Box>
      <Tabs
        value={group}
        onChange={(_event, next: (typeof GROUPS)[number]) => setGroup(next)}
        variant="scrollable"
        scrollButtons="auto"
        // On a phone most of the nine tabs are off-screen: show the arrows there too.
        allowScrollButtonsMobile
        aria-label={translate('app.menu.general')}
      >
        {GROUPS.map((name) => (
          <Tab
            key={name}
            value={name}
            label={translate(`settings.general.tabs.${name}`)}
            id={`settings-tab-${name}`}
            aria-controls={`settings-panel-${name}`}
          />
        ))}
      </Tabs>
      <Box
        role="tabpanel"
        id={`settings-panel-${group}`}
        aria-labelledby={`settings-tab-${group}`}
        sx={{ pt: 2 }}
      >
        <SettingsGroupForm key={group} group={group} />
      </Box>
    </Box>
  );
}
