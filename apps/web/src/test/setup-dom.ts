import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { fakeFetch, resetFakeApi } from './fake-api';

/*
 * jsdom lacks the layout APIs Mantine calls (media queries, resize observers, scrolling); these stand-ins answer
 * 'desktop width, nothing observed'. Each test starts on an empty document.
 */
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= NoResizeObserver as unknown as typeof ResizeObserver;
Element.prototype.scrollIntoView ??= () => undefined;
// Mantine's autosizing Textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}

// findBy…/waitFor wait up to 5 s instead of 1 s: on a machine shared by many test runs a React Query round trip
// (request, answer, re-render) can take longer than a second.
configure({ asyncUtilTimeout: 5000 });

// Before the app's modules load: the API client keeps the fetch it finds when it is created.
globalThis.fetch = fakeFetch;

afterEach(() => {
  cleanup();
  resetFakeApi();
});
