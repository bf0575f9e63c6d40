/**
 * react-admin's `DatagridEditor` on demand (scripts/lib/vite-lean-deps.ts gives this module to
 * `DatagridConfigurable` in the production build). `DatagridConfigurable` creates the editor element on
 * every list but only react-admin's Inspector (configuration mode) renders it, and the product opens no
 * Inspector: its column chooser (src/engine/list/ColumnChooser.tsx) is a download of its own. So the editor, its
 * `FieldsSelector`, one `FieldToggle` per column and MUI's `Switch` stay out of every list page and download
 * when an editor first renders. Props pass through (`Configurable` gives it a `preferenceKey`).
 */
import { lazyComponent } from './lazyComponent.tsx';

export const DatagridEditor = lazyComponent('DatagridEditor', () =>
  import('ra-ui-materialui/dist/list/datagrid/DatagridEditor.js').then((module) => module.DatagridEditor),
);
