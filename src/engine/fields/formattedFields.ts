/**
 * react-admin's fields of the `formatted` on-demand kinds (numbers, e-mail addresses, links; fieldTable.tsx):
 * a chunk of their own, so a list that shows none of them does not carry them (issue 37 item 6).
 */
export { EmailField, NumberField, UrlField } from 'react-admin';
