/** jsonexport ships no types; src/lib/jsonexportOnDemand.ts calls it as its README documents. */
declare module 'jsonexport/dist/index.js' {
  function jsonExport(...args: unknown[]): unknown;
  export default jsonExport;
}
