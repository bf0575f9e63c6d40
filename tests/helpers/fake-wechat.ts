import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeWechatUser {
  openid: string;
  unionid?: string;
  nickname: string;
  headimgurl?: string;
}

export interface FakeWechat {
  /** Base URL for both WECHAT_OPEN_BASE and WECHAT_API_BASE (one server plays both hosts). */
  url: string;
  appId: string;
  secret: string;
  /** Who consents at the authorize page (the person "holding the phone"). */
  user: FakeWechatUser;
  /**
   * `normal`; `hang` (API calls never answer: a timeout); `busy` (errcode -1 on the API);
   * `snapshot` (the token answer says is_snapshotuser = 1).
   */
  mode: 'normal' | 'hang' | 'busy' | 'snapshot';
  /** Every API request's path and query as received (tests check that secrets only went to WeChat). */
  requests: string[];
  /** A fresh, unused code for `user` (what the authorize page would hand out). */
  issueCode(user?: FakeWechatUser): string;
  close(): Promise<void>;
}

/**
 * A WeChat stand-in on 127.0.0.1 (a free port) speaking the official-account web authorisation endpoints with
 * WeChat's payloads: `/connect/oauth2/authorize` (consents at once and redirects back with code + state),
 * `/sns/oauth2/access_token` (codes work once; errcode 40029 / 40163 / 40125 / 40013 like WeChat's) and
 * `/sns/userinfo`. Example: `const wx = await startFakeWechat(); createTestApp({ wechatApiBase: wx.url })`.
 */
export async function startFakeWechat({
  appId = 'wx0123456789abcdef',
  secret = crypto.randomBytes(16).toString('hex'),
}: { appId?: string; secret?: string } = {}): Promise<FakeWechat> {
  const codes = new Map<string, { user: FakeWechatUser; isUsed: boolean }>();
  const accessTokens = new Map<string, FakeWechatUser>();
  const hanging = new Set<http.ServerResponse>();

  const fake: FakeWechat = {
    url: '',
    appId,
    secret,
    user: { openid: 'o-default-openid', nickname: 'Default' },
    mode: 'normal',
    requests: [],
    issueCode(user = fake.user) {
      const code = crypto.randomBytes(16).toString('hex');
      codes.set(code, { user: { ...user }, isUsed: false });
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const q = url.searchParams;
    if (url.pathname === '/connect/oauth2/authorize') {
      const redirect = q.get('redirect_uri');
      if (q.get('appid') !== appId || !redirect || q.get('response_type') !== 'code') {
        // WeChat shows an error page rather than redirecting for a bad appid or redirect_uri.
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><body><h1>参数错误</h1><p>Oops! Something went wrong:(</p></body></html>');
        return;
      }
      const back = new URL(redirect);
      back.searchParams.set('code', fake.issueCode());
      back.searchParams.set('state', q.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    fake.requests.push(url.pathname + url.search);
    if (fake.mode === 'hang') {
      hanging.add(res);
      return;
    }
    if (fake.mode === 'busy') return reply(res, { errcode: -1, errmsg: `system error${rid()}` });
    if (url.pathname === '/sns/oauth2/access_token') return accessToken(res, q);
    if (url.pathname === '/sns/userinfo') return userInfo(res, q);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 Not Found');
  });

  function accessToken(res: http.ServerResponse, q: URLSearchParams) {
    if (q.get('appid') !== appId) return reply(res, { errcode: 40013, errmsg: `invalid appid${rid()}` });
    if (q.get('secret') !== secret) {
      return reply(res, { errcode: 40125, errmsg: `invalid appsecret${rid()}` });
    }
    if (q.get('grant_type') !== 'authorization_code') {
      return reply(res, { errcode: 40002, errmsg: `invalid grant_type${rid()}` });
    }
    const entry = codes.get(q.get('code') ?? '');
    if (!entry) return reply(res, { errcode: 40029, errmsg: `invalid code${rid()}` });
    if (entry.isUsed) return reply(res, { errcode: 40163, errmsg: `code been used${rid()}` });
    entry.isUsed = true;
    const token = crypto.randomBytes(24).toString('base64url');
    accessTokens.set(token, entry.user);
    reply(res, {
      access_token: token,
      expires_in: 7200,
      refresh_token: crypto.randomBytes(24).toString('base64url'),
      openid: entry.user.openid,
      scope: 'snsapi_userinfo',
      ...(fake.mode === 'snapshot' ? { is_snapshotuser: 1 } : {}),
      ...(entry.user.unionid ? { unionid: entry.user.unionid } : {}),
    });
  }

  function userInfo(res: http.ServerResponse, q: URLSearchParams) {
    const user = accessTokens.get(q.get('access_token') ?? '');
    if (!user) {
      return reply(res, {
        errcode: 40001,
        errmsg: `invalid credential, access_token is invalid or not latest${rid()}`,
      });
    }
    if (q.get('openid') !== user.openid)
      return reply(res, { errcode: 40003, errmsg: `invalid openid${rid()}` });
    reply(res, {
      openid: user.openid,
      nickname: user.nickname,
      sex: 0,
      province: '',
      city: '',
      country: '',
      headimgurl: user.headimgurl ?? '',
      privilege: [],
      ...(user.unionid ? { unionid: user.unionid } : {}),
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  return fake;
}

/** WeChat answers its JSON as text/plain. */
function reply(res: http.ServerResponse, body: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end(JSON.stringify(body));
}

/** WeChat suffixes errmsg with a request id. */
function rid(): string {
  return `, rid: ${crypto.randomBytes(4).toString('hex')}-${crypto.randomBytes(4).toString('hex')}`;
}

/**
 * Plays the browser at WeChat: opens an authorisation URL from `GET .../auth` on the fake, which consents and
 * redirects back; returns the `code` and `state` of the return URL (and the URL itself).
 */
export async function authorize(url: string): Promise<{ code: string; state: string; returnUrl: URL }> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`the fake did not redirect (${res.status})`);
  const returnUrl = new URL(location);
  return {
    code: returnUrl.searchParams.get('code') ?? '',
    state: returnUrl.searchParams.get('state') ?? '',
    returnUrl,
  };
}
