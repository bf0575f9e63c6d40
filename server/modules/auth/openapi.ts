/** JSON schemas that document the account calls in the OpenAPI document (zod does the validating). */
export const tokenResponseSchema = {
  type: 'object',
  properties: {
    code: { type: 'integer' },
    data: {
      type: 'object',
      properties: {
        access_token: { type: 'string' },
        expires_at: { type: 'string', format: 'date-time', nullable: true },
      },
    },
  },
};

export const passwordPairProperties = {
  password: { type: 'string', minLength: 8, maxLength: 128 },
  password_confirmation: { type: 'string' },
};
