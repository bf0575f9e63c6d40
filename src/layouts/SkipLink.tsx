import { styled } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

/** The id of the signed-in layouts' `<main>`, the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

const Link = styled('a')(({ theme }) => ({
  position: 'absolute',
  left: theme.spacing(1),
  top: theme.spacing(-8),
  zIndex: theme.zIndex.tooltip + 1,
  padding: theme.spacing(1, 2),
  borderRadius: theme.shape.borderRadius,
  background: theme.palette.background.paper,
  color: theme.palette.primary.main,
  boxShadow: theme.shadows[4],
  '&:focus': { top: theme.spacing(1), outline: `2px solid ${theme.palette.primary.main}` },
}));

/**
 * The first stop of the Tab key on every signed-in page: "Skip to main content", shown while focused, which
 * moves focus into `<main>` past the header and the menu.
 *
 * @example
 * <SkipLink /><AppBar>...</AppBar><Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1}>...</Box>
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        // Focus without a hash in the address (the router owns the URL); the heading when there is one.
        event.preventDefault();
        const main = document.getElementById(MAIN_CONTENT_ID);
        const target = main?.querySelector<HTMLElement>('h1') ?? main;
        if (!target) return;
        if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
        target.focus();
      }}
    >
      {t('app.shell.skip_to_content')}
    </Link>
  );
}
