/** JSON schemas that document the WeChat calls in the OpenAPI document (zod does the validating). */
const envelope = (data: Record<string, unknown>) => ({
  type: 'object',
  properties: { code: { type: 'integer' }, data },
});

export const authQuerySchema = {
  type: 'object',
  properties: {
    href: { type: 'string', description: 'Same-origin page to return to after sign-in, e.g. /dashboard' },
    remember: { type: 'string', enum: ['0', '1', 'true', 'false'], description: 'Keep the session 30 days' },
  },
};

export const authResponseSchema = envelope({
  type: 'object',
  properties: {
    url: {
      type: 'string',
      description:
        'WeChat authorisation URL (connect/oauth2/authorize, scope snsapi_userinfo) with a state valid 10 ' +
        'minutes, once, from this browser (bound by an httpOnly cookie set on this response)',
    },
  },
});

export const loginBodySchema = {
  type: 'object',
  required: ['code', 'state'],
  properties: {
    code: { type: 'string', description: 'The code WeChat put on the return URL' },
    state: { type: 'string', description: 'The state WeChat put on the return URL' },
  },
};

export const loginResponseSchema = envelope({
  oneOf: [
    {
      type: 'object',
      description: 'A linked WeChat user: signed in',
      required: ['access_token'],
      properties: {
        access_token: { type: 'string' },
        expires_at: { type: 'string', format: 'date-time', nullable: true },
      },
    },
    {
      type: 'object',
      description: 'A WeChat user not linked yet: a ticket for POST register, and what to prefill',
      required: ['registration_ticket'],
      properties: {
        registration_ticket: { type: 'string' },
        expires_at: { type: 'string', format: 'date-time' },
        nickname: { type: 'string' },
        avatar: { type: 'string', nullable: true },
        registration: { type: 'boolean', description: 'Whether new accounts may be created' },
      },
    },
  ],
});

export const registerBodySchema = {
  type: 'object',
  required: ['ticket'],
  properties: {
    ticket: { type: 'string', description: 'registration_ticket from POST login' },
    link: {
      type: 'object',
      description: 'Link to an existing account instead of creating one',
      required: ['username', 'password'],
      properties: {
        username: { type: 'string', description: 'Username, email or phone' },
        password: { type: 'string' },
      },
    },
    username: { type: 'string' },
    password: { type: 'string', minLength: 8, maxLength: 128, description: 'Optional' },
    password_confirmation: { type: 'string' },
    email: { type: 'string', description: 'Optional; needs captcha (scene register)' },
    phone: { type: 'string', description: 'Optional; needs captcha (scene register)' },
    captcha: { type: 'string', pattern: '^\\d{6}$' },
  },
};

export const tokenResponseSchema = envelope({
  type: 'object',
  properties: {
    access_token: { type: 'string' },
    expires_at: { type: 'string', format: 'date-time', nullable: true },
  },
});

export const identityResponseSchema = envelope({
  type: 'object',
  properties: {
    enabled: { type: 'boolean', description: 'Whether WeChat sign-in is on' },
    has_password: { type: 'boolean', description: 'Unlinking needs a password to sign in with' },
    identity: {
      type: 'object',
      nullable: true,
      properties: {
        nickname: { type: 'string' },
        avatar: { type: 'string', nullable: true },
        linked_at: { type: 'string', format: 'date-time' },
      },
    },
  },
});
