import SettingsIcon from '@mui/icons-material/Settings';
import type { SvgIconComponent } from '@mui/icons-material';
import { MENU_ICONS } from 'virtual:menu-icons';

/**
 * The settings menu's icons by @mui/icons-material name. Only the icons the menu names are bundled: the
 * build lists those of schemas/permissions.ts and of the resources' `menu.icon` (`virtual:menu-icons`,
 * scripts/lib/resourceDescriptors.ts); importing the whole icon set by name would add megabytes.
 */
export { MENU_ICONS };

/** The icon named `name`; a generic one (Settings) for none or a name that is no icon. */
export function menuIcon(name: string | undefined): SvgIconComponent {
  return (name && MENU_ICONS[name]) || SettingsIcon;
}
