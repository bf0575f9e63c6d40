import * as z from 'zod';
import { isIdString } from './ids.ts';

/** Mainland-China mobile numbers: 11 digits starting with 1 (the `country` setting may widen this later). */
export const PHONE_PATTERN = /^1\d{10}$/;

/** Ids travel as strings of digits (`"42"`, at most 2^63-1: a bigint); numbers are accepted and normalised. */
export const id = z
  .union([z.string().regex(/^\d{1,19}$/), z.number().int().nonnegative()])
  .transform(String)
  .refine(isIdString, { message: 'validation.invalid' });

export const phone = z.string().trim().regex(PHONE_PATTERN, { message: 'validation.phone' });
export const email = z.string().trim().toLowerCase().email({ message: 'validation.email' }).max(254);

/** `state` arrives as true/false or 1/0 and is always a boolean afterwards. */
export const state = z
  .union([z.boolean(), z.literal(1), z.literal(0), z.literal('1'), z.literal('0')])
  .transform((v) => v === true || v === 1 || v === '1');
