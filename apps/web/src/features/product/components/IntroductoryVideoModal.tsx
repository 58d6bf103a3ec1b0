import { useEffect, useState } from 'react';
import { Modal } from '@mantine/core';
import { configuratorMessages, FeatureSettingKey, timings } from '@shk/contracts';
import { useConfigurationValue } from '../../../api/configuration';
import { isVideoFile, marketingVideoFlag } from '../../../ui/marketing-video';

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

  if (!url) return null;
  return (
    <Modal
      opened={opened}
      onClose={() => setOpened(false)}
      title={configuratorMessages.videoTitle}
      closeButtonProps={{ 'aria-label': configuratorMessages.videoClose }}
      centered
      size="xl"
      transitionProps={{ duration: timings.modalFadeMs }}
      data-testid="introductory-video"
    >
      {isVideoFile(url) ? (
        <video src={url} controls autoPlay muted playsInline style={{ width: '100%', display: 'block' }}>
          <track kind="captions" />
        </video>
      ) : (
        <iframe
          src={url}
          title={configuratorMessages.videoTitle}
          allow="autoplay; fullscreen; picture-in-picture"
          allowFullScreen
          style={{ width: '100%', aspectRatio: '16 / 9', border: 0, display: 'block' }}
        />
      )}
    </Modal>
  );
}
