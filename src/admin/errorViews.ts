/**
 * react-admin's pages for a failed screen, a refused permission and a failed authentication check: a chunk
 * of their own (LeanAdmin loads them when one is shown), since a page that works never shows them.
 */
export { AccessDenied, AuthenticationError, Error } from 'react-admin';
