import { describe, expect, it } from 'vitest';
import { currentDeviceEnv, detectDevice } from './device.ts';

const UA = {
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
  wechat:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN',
  wxwork:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) wxwork/4.1.22 MicroMessenger/7.0.1 Chrome/108.0 Safari/537.36',
  miniProgram:
    'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.47 miniProgram/wx1234',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
};

describe('detectDevice', () => {
  it('treats 992px as the first wide width', () => {
    expect(detectDevice({ userAgent: UA.desktop, width: 991 }).isWide).toBe(false);
    expect(detectDevice({ userAgent: UA.desktop, width: 992 }).isWide).toBe(true);
  });

  it('recognises a desktop browser as nothing special', () => {
    expect(detectDevice({ userAgent: UA.desktop, width: 1280 })).toEqual({
      isWide: true,
      isMobile: false,
      isIOS: false,
      isFlutter: false,
      isWeChat: false,
      isWeChatWork: false,
      isMiniProgram: false,
    });
  });

  it('recognises iOS and Android phones as mobile', () => {
    expect(detectDevice({ userAgent: UA.iphone, width: 390 })).toMatchObject({ isMobile: true, isIOS: true });
    expect(detectDevice({ userAgent: UA.android, width: 412 })).toMatchObject({
      isMobile: true,
      isIOS: false,
    });
  });

  it('recognises an iPad that reports a Mac user agent by its touch points', () => {
    expect(detectDevice({ userAgent: UA.mac, width: 1024, maxTouchPoints: 5 }).isIOS).toBe(true);
    expect(detectDevice({ userAgent: UA.mac, width: 1440, maxTouchPoints: 0 }).isIOS).toBe(false);
  });

  it('tells WeChat, WeChat Work and mini-programs apart', () => {
    expect(detectDevice({ userAgent: UA.wechat, width: 390 })).toMatchObject({
      isWeChat: true,
      isWeChatWork: false,
    });
    expect(detectDevice({ userAgent: UA.wxwork, width: 1280 })).toMatchObject({
      isWeChat: false,
      isWeChatWork: true,
    });
    expect(detectDevice({ userAgent: UA.miniProgram, width: 390 }).isMiniProgram).toBe(true);
    expect(
      detectDevice({ userAgent: UA.wechat, width: 390, wxEnvironment: 'miniprogram' }).isMiniProgram,
    ).toBe(true);
    expect(detectDevice({ userAgent: UA.wechat, width: 390 }).isMiniProgram).toBe(false);
  });

  it('recognises the Flutter app by its bridge or user agent', () => {
    expect(detectDevice({ userAgent: UA.android, width: 412, hasFlutterBridge: true }).isFlutter).toBe(true);
    expect(detectDevice({ userAgent: `${UA.android} Flutter`, width: 412 }).isFlutter).toBe(true);
    expect(detectDevice({ userAgent: UA.android, width: 412 }).isFlutter).toBe(false);
  });

  it('reads the current window', () => {
    expect(currentDeviceEnv()).toMatchObject({ userAgent: navigator.userAgent, width: window.innerWidth });
  });
});
