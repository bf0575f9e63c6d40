import * as z from 'zod';
import { OIDC_PROVIDER_ID } from '../../../schemas/settings.ts';

/** The provider entry a path names (`v1/oidc/<provider>/...`): anything else names nothing (404). */
export const providerParams = z.object({ provider: z.string().regex(OIDC_PROVIDER_ID) });

/** `GET auth?href=&remember=`: lenient, as the WeChat start (an odd href is none). */
export const authQuerySchema = z.object({
  href: z.string().optional().describe('A same-origin path to return to after signing in'),
  remember: z.string().optional().describe('`1` or `true`: a 30-day sign-in'),
});

/** `POST v1/oidc/login`. */
export const ticketLoginSchema = z.object({
  ticket: z
    .string({ error: 'validation.required' })
    .min(1, 'validation.required')
    .max(200, 'auth.oidc.errors.ticket_invalid'),
});

/** `POST v1/user/oidc/<provider>/bind`: where to send the browser. */
export const bindAnswerSchema = z.object({ url: z.string() });

/** `GET v1/user/oidc`: every provider entry and whether the caller is bound to it. */
export const bindingsAnswerSchema = z.array(
  z.object({
    id: z.string(),
    label: z.string(),
    bound: z.boolean(),
    email: z.string().nullable(),
    bound_at: z.string().nullable(),
    last_login_at: z.string().nullable(),
  }),
);
