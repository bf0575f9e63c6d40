/** Spec 9: at least 992px wide counts as a wide screen. */
export const WIDE_SCREEN_MIN = 992;
export const WIDE_SCREEN_QUERY = `(min-width:${WIDE_SCREEN_MIN}px)`;

export interface Device {
  isWide: boolean;
  isMobile: boolean;
  isIOS: boolean;
  /** Running inside the Flutter app's web view. */
  isFlutter: boolean;
  isWeChat: boolean;
  isWeChatWork: boolean;
  /** Running inside a WeChat mini-program web view. */
  isMiniProgram: boolean;
}

export interface DeviceEnv {
  userAgent: string;
  width: number;
  /** `window.__wxjs_environment`, set by WeChat's JS bridge inside mini-programs. */
  wxEnvironment?: unknown;
  /** Whether the Flutter app injected its JavaScript channel (`window.flutter_inappwebview`). */
  hasFlutterBridge?: boolean;
  /** iPadOS 13+ reports a desktop Safari user agent; touch points tell it apart from a Mac. */
  maxTouchPoints?: number;
}

/**
 * Classifies the client from its user agent and window. Pure, so it is tested with plain user-agent strings.
 *
 * @example
 * const { isWeChat } = detectDevice(currentDeviceEnv());
 */
export function detectDevice(env: DeviceEnv): Device {
  const ua = env.userAgent;
  const isIPadOS = /Macintosh/.test(ua) && (env.maxTouchPoints ?? 0) > 1;
  const isIOS = /iPhone|iPad|iPod/i.test(ua) || isIPadOS;
  const isWeChatWork = /wxwork/i.test(ua);
  const isMiniProgram = env.wxEnvironment === 'miniprogram' || /miniProgram/i.test(ua);
  return {
    isWide: env.width >= WIDE_SCREEN_MIN,
    isMobile: isIOS || /Android|Mobile|HarmonyOS|webOS|BlackBerry|IEMobile|Opera Mini/i.test(ua),
    isIOS,
    isFlutter: Boolean(env.hasFlutterBridge) || /flutter/i.test(ua),
    // WeChat Work also says MicroMessenger; it is reported as WeChat Work only.
    isWeChat: /MicroMessenger/i.test(ua) && !isWeChatWork,
    isWeChatWork,
    isMiniProgram,
  };
}

/** The current browser's environment for detectDevice. */
export function currentDeviceEnv(): DeviceEnv {
  const w = window as unknown as Record<string, unknown>;
  return {
    userAgent: navigator.userAgent,
    width: window.innerWidth,
    wxEnvironment: w.__wxjs_environment,
    hasFlutterBridge: 'flutter_inappwebview' in w,
    maxTouchPoints: navigator.maxTouchPoints,
  };
}
