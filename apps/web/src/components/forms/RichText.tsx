import { Box, type BoxProps } from '@mantine/core';
import { useMemo } from 'react';
import { richTextHtml } from '#src/lib/forms/rich-text';

/** Shows rich text under the allow-list of product §5; anything else reads as escaped text. */
export function RichText({ html, ...props }: { html: string } & BoxProps & { 'data-testid'?: string }) {
  const safe = useMemo(() => richTextHtml(html), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by richTextHtml (allow-list + DOMPurify).
  return <Box {...props} dangerouslySetInnerHTML={{ __html: safe }} />;
}
