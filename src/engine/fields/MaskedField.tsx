import Typography from '@mui/material/Typography';
import { useFieldValue } from 'react-admin';
import type { FieldProps } from 'react-admin';
import type { FieldMeta } from '../../../resources/define.ts';
import { maskEmail, maskIdCard, maskPhone } from '../../lib/mask.ts';

type MaskName = NonNullable<FieldMeta['mask']>;

/** `mask` metadata -> the spec's masking helper. */
const MASKS: Record<MaskName, (value: string) => string> = {
  phone: maskPhone,
  email: maskEmail,
  idCard: maskIdCard,
};

/** A text cell shown through one of the masking helpers (phone, email, id card). */
export function MaskedField({ mask, ...props }: FieldProps & { mask: MaskName }) {
  const value = useFieldValue(props);
  if (value === null || value === undefined || value === '') return null;
  return (
    <Typography component="span" variant="body2">
      {MASKS[mask](String(value))}
    </Typography>
  );
}
