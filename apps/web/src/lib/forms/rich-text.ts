import { RICH_TEXT } from '@fleetgate/shared/schemas/notices';
import DOMPurify from 'dompurify';

const TAGS: ReadonlySet<string> = new Set(RICH_TEXT.tags);
const ATTRIBUTES = RICH_TEXT.attributes as Record<string, readonly string[]>;
const SCHEME = new RegExp(`^(?:${RICH_TEXT.schemes.join('|')}):`, 'i');
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function keptAttributes(element: Element): string {
  const tag = element.tagName.toLowerCase();
  const allowed = ATTRIBUTES[tag] ?? [];
  const out: string[] = [];
  for (const name of allowed) {
    const value = element.getAttribute(name);
    if (value === null) continue;
    if (name === 'href' && !SCHEME.test(value.trim())) continue;
    if (name === 'target' && !(RICH_TEXT.targets as readonly string[]).includes(value)) continue;
    out.push(` ${name}="${escapeHtml(value)}"`);
  }
  if (tag === 'a' && element.getAttribute('target') === '_blank') out.push(' rel="noopener noreferrer"');
  return out.join('');
}

/**
 * A tag shown as text, as the server stores it (modules/notices/rich-text.ts): without its
 * attributes, a void tag closed ('<img />'), so that a preview reads as the saved notice will.
 */
function tagText(element: Element): string {
  const tag = element.tagName.toLowerCase();
  return VOID.has(tag) ? `<${tag} />` : `<${tag}>`;
}

function serialise(node: Node): string {
  if (node.nodeType === Node.TEXT_NODE) return escapeHtml(node.textContent ?? '');
  if (node.nodeType !== Node.ELEMENT_NODE) return '';
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  const children = [...element.childNodes].map(serialise).join('');
  if (TAGS.has(tag)) return `<${tag}${keptAttributes(element)}>${children}</${tag}>`;
  // product §5: any other tag shows escaped, as text.
  return escapeHtml(tagText(element)) + children + (VOID.has(tag) ? '' : escapeHtml(`</${tag}>`));
}

/**
 * Rich text of product §5 as safe HTML: tags a, b, i, em, strong (href, target, class on
 * links; class on the others; schemes http, https, ftp, mailto, tel) are kept; any other
 * tag shows escaped. DOMPurify with the same allow-list guards the result.
 */
export function richTextHtml(html: string): string {
  const document = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  const kept = [...document.body.childNodes].map(serialise).join('');
  return DOMPurify.sanitize(kept, {
    ALLOWED_TAGS: [...RICH_TEXT.tags],
    ALLOWED_ATTR: ['href', 'target', 'class', 'rel'],
    ALLOWED_URI_REGEXP: SCHEME,
    // Plain-value attributes: not URLs, so not held to the scheme list.
    ADD_URI_SAFE_ATTR: ['target', 'rel'],
  });
}
