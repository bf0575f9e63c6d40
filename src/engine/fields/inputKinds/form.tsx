import { PasswordInput, TextInput } from 'react-admin';
import { AssetInput } from '../AssetInput.tsx';
import { MarkdownInput } from '../MarkdownInput.tsx';
import type { EngineField } from '../../data/registry.ts';
import { common, type InputContext, type InputKindTable } from './common.ts';

/** Kinds whose form input is an editor of its own (uploads, markdown, a password box); a filter types text. */
export const FORM_INPUTS: InputKindTable<'password' | 'file' | 'image' | 'markdown'> = {
  password: (f, ctx) => <PasswordInput {...common(f, ctx)} autoComplete="new-password" />,
  // A filter on an uploaded file searches by asset id.
  file: (f, ctx) =>
    ctx.isFilter ? <TextInput {...common(f, ctx)} /> : <AssetInput {...assetProps(f, ctx)} kind="file" />,
  image: (f, ctx) =>
    ctx.isFilter ? <TextInput {...common(f, ctx)} /> : <AssetInput {...assetProps(f, ctx)} kind="image" />,
  markdown: (f, ctx) =>
    ctx.isFilter ? <TextInput {...common(f, ctx)} /> : <MarkdownInput {...common(f, ctx)} />,
};

function assetProps(f: EngineField, ctx: InputContext) {
  const { source, isRequired } = common(f, ctx);
  return {
    source,
    isRequired,
    label: `${f.label ?? `resources.${ctx.resource}.fields.${f.name}`}`,
    field: `${ctx.resource}.${f.name}`,
  };
}
