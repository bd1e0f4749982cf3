import { RICH_TEXT } from '@fleetgate/shared/schemas/notices';
import sanitizeHtml from 'sanitize-html';

const allowedAttributes: Record<string, string[]> = Object.fromEntries(
  Object.entries(RICH_TEXT.attributes).map(([tag, attributes]) => [tag, [...attributes]]),
);

const options: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT.tags],
  allowedAttributes,
  allowedSchemes: [...RICH_TEXT.schemes],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // product §5: other tags show escaped, so an operator's `<u>` reads as text, never as markup.
  disallowedTagsMode: 'escape',
  transformTags: {
    a: (tagName, attribs) => {
      const { target, rel: _ignored, ...kept } = attribs;
      const out: Record<string, string> = { ...kept };
      if (target && (RICH_TEXT.targets as readonly string[]).includes(target)) out.target = target;
      // A link opening a new tab must not hand the opener to the target page.
      if (out.target === '_blank') out.rel = 'noopener noreferrer';
      return { tagName, attribs: out };
    },
  },
};

// `rel` is added by the transform above, never taken from input.
options.allowedAttributes = { ...allowedAttributes, a: [...(allowedAttributes.a ?? []), 'rel'] };

/**
 * Sanitises a notice message to the rich-text allow-list of product §5: tags a, b, i, em,
 * strong; href, target and class on links; class on the others; link schemes http,
 * https, ftp, mailto and tel. Anything else is escaped to text.
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options);
}

/** The text a reader sees once the markup is gone (entities decoded). */
export function visibleText(html: string): string {
  return sanitizeHtml(html, { allowedTags: [], allowedAttributes: {}, disallowedTagsMode: 'discard' })
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/gi, 'x')
    .trim();
}
