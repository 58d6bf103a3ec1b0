import { Modal } from '@mantine/core';
import { configuratorMessages, timings } from '@shk/contracts';
import { isVideoFile } from '../../../ui/marketing-video';

/** The introductory video in a Modal (loaded by IntroductoryVideoModal when it opens). */
export function IntroductoryVideoDialog({
  url,
  opened,
  onClose,
}: {
  url: string;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
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
