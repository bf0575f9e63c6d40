/**
 * react-admin's notification snackbar: a chunk of its own, which LeanAdmin loads when the first notice is
 * queued (a page that shows none does not download MUI's Snackbar).
 */
export { Notification } from 'react-admin';
