import { z } from 'zod';

/** Settings groups of the contract (`v1/settings/<name>`), each a zod schema with defaults. */
export const settingsSchemas = {
  basic: z.object({
    upload_max_size: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(10 * 1024 * 1024),
    activity_retention_days: z.number().int().min(1).max(3650).default(180),
  }),
  site: z.object({
    site_name: z.string().trim().min(1).max(60).default('Admin'),
  }),
  languages: z.object({
    languages: z
      .array(z.enum(['zh-CN', 'en']))
      .min(1)
      .default(['zh-CN', 'en']),
  }),
  currency: z.object({
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default('CNY'),
    decimals: z.number().int().min(0).max(4).default(0),
  }),
  country: z.object({
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .default('CN'),
    phone_pattern: z.string().max(200).default('^1\\d{10}$'),
  }),
} as const;

export type SettingsGroup = keyof typeof settingsSchemas;
export type SettingsOf<G extends SettingsGroup> = z.output<(typeof settingsSchemas)[G]>;
