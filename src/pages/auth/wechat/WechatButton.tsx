import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentDeviceEnv, detectDevice } from '../../../lib/device.ts';
import { safeHref } from '../../../lib/safeHref.ts';
import { isHttpError } from '../../../providers/httpError.ts';
import { usePublicSiteConfig } from '../../../providers/siteStatus.ts';
import { Button } from '../../../public-ui/controls.tsx';
import { startWechatAuth } from './wechatApi.ts';

/** Set once per tab so that coming back from WeChat without signing in does not bounce the user there again. */
export const AUTO_START_KEY = 'wechat_auto_started';

/**
 * "Sign in with WeChat" on the sign-in page, shown only when the server says WeChat sign-in is on
 * (`config.wechat` of GET /api/v1). Inside the WeChat browser it starts the flow by itself, once per tab.
 *
 * @example
 * <WechatButton href={params.get('href')} remember={values.remember} onError={setError} />
 */
export function WechatButton({
  href,
  remember = false,
  onError,
  isWeChat = detectDevice(currentDeviceEnv()).isWeChat,
  onRedirect = (url: string) => window.location.assign(url),
}: {
  href?: string | null;
  remember?: boolean;
  onError: (message: string) => void;
  /** Overridable for tests; defaults to the current browser. */
  isWeChat?: boolean;
  /** Leaves for WeChat; overridable for tests (jsdom cannot navigate away). */
  onRedirect?: (url: string) => void;
}) {
  const { t } = useTranslation();
  const config = usePublicSiteConfig();
  const isOn = config.wechat === true;
  const [isStarting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      const url = await startWechatAuth({ href: safeHref(href), remember });
      onRedirect(url);
    } catch (error) {
      setStarting(false);
      onError(isHttpError(error) ? error.message : t('auth.errors.network'));
    }
  };

  useEffect(() => {
    if (!isOn || !isWeChat || sessionStorage.getItem(AUTO_START_KEY)) return;
    sessionStorage.setItem(AUTO_START_KEY, '1');
    void start();
    // Runs when WeChat sign-in becomes known to be on; `start` reads the latest props.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOn, isWeChat]);

  if (!isOn) return null;
  return (
    <Button variant="outlined" size="large" color="success" onClick={() => void start()} busy={isStarting}>
      {isStarting ? t('auth.wechat.redirecting') : t('auth.wechat.button')}
    </Button>
  );
}
