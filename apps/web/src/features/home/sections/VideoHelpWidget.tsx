import { useEffect } from 'react';
import { FeatureSettingKey, timings } from '@shk/contracts';
import { useConfigurationValue } from '../../../api/configuration';
import { useConsent } from '../../../ui/consent';

/** What the widget script (setting VideoHelpWidgetScriptUrl) offers once loaded. */
interface VideoHelpApi {
  init: (options: { videoUrl?: string }) => void;
  destroy?: () => void;
}

declare global {
  interface Window {
    ShkVideoHelp?: VideoHelpApi;
  }
}

/**
 * Spec 'Home page': the video-help widget is loaded only after marketing consent; it polls every 1 s for
 * up to 10 s for the widget's availability (window.ShkVideoHelp), then starts it. Withdrawing consent
 * (or leaving the page) removes the widget and its script.
 */
export function VideoHelpWidget() {
  const { hasConsent } = useConsent();
  const marketing = hasConsent('marketing');
  const scriptUrl = useConfigurationValue(FeatureSettingKey.VideoHelpWidgetScriptUrl).data?.value?.trim();
  const videoUrl = useConfigurationValue(FeatureSettingKey.IntroductoryVideoUrl).data?.value?.trim() || undefined;

  useEffect(() => {
    if (!marketing || !scriptUrl) return;
    const script = document.createElement('script');
    script.src = scriptUrl;
    script.async = true;
    script.dataset.videoHelp = 'true';
    document.body.appendChild(script);
    let waitedMs = 0;
    let started = false;
    const poll = setInterval(() => {
      waitedMs += timings.videoWidgetPollMs;
      if (window.ShkVideoHelp) {
        clearInterval(poll);
        window.ShkVideoHelp.init({ videoUrl });
        started = true;
      } else if (waitedMs >= timings.videoWidgetPollMaxMs) {
        clearInterval(poll);
      }
    }, timings.videoWidgetPollMs);
    return () => {
      clearInterval(poll);
      if (started) window.ShkVideoHelp?.destroy?.();
      script.remove();
      delete window.ShkVideoHelp;
    };
  }, [marketing, scriptUrl, videoUrl]);

  return null;
}
