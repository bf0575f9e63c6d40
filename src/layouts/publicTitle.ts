type Translate = (key: string) => string;

// Apart from ./pageTitle.ts, which loads the resource registry: the sign-in pages stay a small download.
/** Signed-out pages by path (`/` is the sign-in page): the key of the page's own heading. */
const PUBLIC_TITLES: Record<string, string> = {
  '/': 'auth.login.title',
  '/login': 'auth.login.title',
  '/register': 'auth.register.title',
  '/reset': 'auth.reset.title',
};

/**
 * The title of a signed-out page (sign in, register, reset), named from the route table so the pages
 * themselves need not set it; null for any other path.
 */
export function publicPageTitleOf(pathname: string, t: Translate): string | null {
  const key = PUBLIC_TITLES[pathname.replace(/\/+$/, '') || '/'];
  return key ? t(key) : null;
}
