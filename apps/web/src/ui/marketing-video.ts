/**
 * The marketing-video-shown flag (spec: lives in the session, cleared when not authenticated): the
 * introductory video opens once per browser session. Necessary storage (it only prevents showing the
 * video again), so it needs no consent.
 */
const MARKETING_VIDEO_SHOWN_KEY = 'shk.marketingVideoShown';

export const marketingVideoFlag = {
  isSet: (): boolean => {
    try {
      return sessionStorage.getItem(MARKETING_VIDEO_SHOWN_KEY) === 'true';
    } catch {
      return false;
    }
  },
  set: () => {
    try {
      sessionStorage.setItem(MARKETING_VIDEO_SHOWN_KEY, 'true');
    } catch {
      // Storage unavailable: the video may show again, nothing else breaks.
    }
  },
  clear: () => {
    try {
      sessionStorage.removeItem(MARKETING_VIDEO_SHOWN_KEY);
    } catch {
      // see above
    }
  },
};

/** Whether an address is played as a video file (else embedded as a page, e.g. a video platform's player). */
export const isVideoFile = (url: string) => /\.(mp4|webm|ogg)(\?|#|$)/i.test(url);
