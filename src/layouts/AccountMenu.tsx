import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

/** The header's account menu: profile, password and sign out (the caller decides how signing out works). */
export function AccountMenu({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('app.account.menu')}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <AccountCircleIcon />
      </IconButton>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
        <MenuItem component={RouterLink} to="/account/profile" onClick={close}>
          {t('app.account.profile')}
        </MenuItem>
        <MenuItem component={RouterLink} to="/account/password" onClick={close}>
          {t('app.account.password')}
        </MenuItem>
        <MenuItem component={RouterLink} to="/account/security" onClick={close}>
          {t('app.account.security')}
        </MenuItem>
        <MenuItem component={RouterLink} to="/account/sessions" onClick={close}>
          {t('app.account.sessions')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            onLogout();
          }}
        >
          {t('app.account.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
