import { createElement, type ReactNode } from 'react';
import { prerender } from 'react-dom/static';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';

/**
 * The HTML of `node` (inside Mantine and a router at `path`) once every lazy component below it has loaded, without
 * the style elements Mantine's provider writes.
 */
export async function renderToHtml(node: ReactNode, path = '/'): Promise<string> {
  const { prelude } = await prerender(
    createElement(MantineProvider, null, createElement(MemoryRouter, { initialEntries: [path] }, node)),
  );
  return (await new Response(prelude).text()).replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
}
