import { lazy, Suspense, useEffect, useState } from 'react';
import { FeatureSettingKey } from '@shk/contracts';
import { useConfigurationValue } from '../../../api/configuration';
import { marketingVideoFlag } from '../../../ui/marketing-video';
import { useOpenedOnce } from '../../../ui/use-opened-once';

// The video's Modal is loaded when the video opens (once per browser session, for one manufacturer's products).
const IntroductoryVideoDialog = lazy(() =>
  import('./IntroductoryVideoDialog').then((m) => ({ default: m.IntroductoryVideoDialog })),
);

/**
 * Spec 'Product detail': a fixed manufacturer (setting IntroductoryVideoManufacturer) triggers an
 * introductory video (IntroductoryVideoUrl) for buyers with or without a relation to it – once per
 * browser session (the marketing-video-shown flag, src/ui/marketing-video.ts).
 */
export function IntroductoryVideoModal({ manufacturerId, enabled }: { manufacturerId: string; enabled: boolean }) {
  const manufacturer = useConfigurationValue(FeatureSettingKey.IntroductoryVideoManufacturer).data?.value?.trim();
  const url = useConfigurationValue(FeatureSettingKey.IntroductoryVideoUrl).data?.value?.trim();
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    if (!enabled || !manufacturer || !url || manufacturer !== manufacturerId) return;
    if (marketingVideoFlag.isSet()) return;
    marketingVideoFlag.set();
    setOpened(true);
  }, [enabled, manufacturer, url, manufacturerId]);

  const mounted = useOpenedOnce(opened);
  if (!url || !mounted) return null;
  return (
    <Suspense fallback={null}>
      <IntroductoryVideoDialog url={url} opened={opened} onClose={() => setOpened(false)} />
    </Suspense>
  );
}
