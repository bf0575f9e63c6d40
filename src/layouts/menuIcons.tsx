import AccountTreeIcon from '@mui/icons-material/AccountTree';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import ArticleIcon from '@mui/icons-material/Article';
import BadgeIcon from '@mui/icons-material/Badge';
import ComputerIcon from '@mui/icons-material/Computer';
import ExtensionIcon from '@mui/icons-material/Extension';
import FolderIcon from '@mui/icons-material/Folder';
import HistoryIcon from '@mui/icons-material/History';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import PeopleIcon from '@mui/icons-material/People';
import ScheduleIcon from '@mui/icons-material/Schedule';
import SettingsIcon from '@mui/icons-material/Settings';
import TuneIcon from '@mui/icons-material/Tune';
import WorkHistoryIcon from '@mui/icons-material/WorkHistory';
import WidgetsIcon from '@mui/icons-material/Widgets';
import Inventory2Icon from '@mui/icons-material/Inventory2';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import CategoryIcon from '@mui/icons-material/Category';
import ImageIcon from '@mui/icons-material/Image';
import AttachMoneyIcon from '@mui/icons-material/AttachMoney';
import DescriptionIcon from '@mui/icons-material/Description';
import StoreIcon from '@mui/icons-material/Store';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import ReceiptIcon from '@mui/icons-material/Receipt';
import type { SvgIconComponent } from '@mui/icons-material';

/**
 * Icon names used by schemas/permissions.ts (and later by GET v1/system/menus) mapped to components. Only
 * these are bundled; importing the whole icon set by name would add megabytes.
 */
export const MENU_ICONS: Record<string, SvgIconComponent> = {
  AccountTree: AccountTreeIcon,
  AdminPanelSettings: AdminPanelSettingsIcon,
  Article: ArticleIcon,
  Badge: BadgeIcon,
  Computer: ComputerIcon,
  Extension: ExtensionIcon,
  Folder: FolderIcon,
  History: HistoryIcon,
  MenuBook: MenuBookIcon,
  MonitorHeart: MonitorHeartIcon,
  People: PeopleIcon,
  Schedule: ScheduleIcon,
  Settings: SettingsIcon,
  Tune: TuneIcon,
  WorkHistory: WorkHistoryIcon,
  // For resources' `menu.icon` (resources/define.ts); add a line here to offer another one.
  Widgets: WidgetsIcon,
  Inventory2: Inventory2Icon,
  ShoppingCart: ShoppingCartIcon,
  Category: CategoryIcon,
  Image: ImageIcon,
  AttachMoney: AttachMoneyIcon,
  Description: DescriptionIcon,
  Store: StoreIcon,
  LocalOffer: LocalOfferIcon,
  Receipt: ReceiptIcon,
};

export function menuIcon(name: string | undefined): SvgIconComponent {
  return (name && MENU_ICONS[name]) || SettingsIcon;
}
