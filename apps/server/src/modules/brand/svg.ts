/// <reference path="./jsdom.d.ts" />
import type { DOMPurify } from 'dompurify';
import type { DOMWindow, XmlElement } from 'jsdom';

const SVG_NS = 'http://www.w3.org/2000/svg';

type Tools = { purify: DOMPurify; window: DOMWindow };

/** `url(...)` in CSS or a presentation attribute, with or without quotes. */
const URL_FUNCTION = /url\(\s*(['"]?)(.*?)\1\s*\)/gis;
/** A reference to an element of the same document ('#logo-gradient'). */
const FRAGMENT = /^#[^\s'"()\\]*$/;
/**
 * CSS that can fetch something without a `url(...)` (`@import "x"`, `image-set("x" 1x)`,
 * `src("x")`), or spell one with escapes: not rewritten, dropped whole.
 */
const UNSAFE_CSS = /\\|@import|image-set\s*\(|\bsrc\s*\(/i;

/**
 * CSS with every `url(...)` that is not `url(#id)` replaced by `none`, so a style can fill
 * with a gradient of the image but never make the browser fetch another address; null when
 * the text could fetch some other way.
 */
function safeCss(text: string): string | null {
  if (UNSAFE_CSS.test(text)) return null;
  return text.replace(URL_FUNCTION, (whole, _quote: string, target: string) =>
    FRAGMENT.test(target.trim()) ? whole : 'none',
  );
}

/** Whether an attribute value refers to nothing outside the image. */
const staysInside = (value: string) => !/url\(/i.test(value) || safeCss(value) === value;

let tools: Promise<Tools> | undefined;

/**
 * DOMPurify on a jsdom window, made on first use: jsdom takes a while to load, and only a
 * brand image upload needs it.
 */
function loadTools(): Promise<Tools> {
  tools ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([
      import('jsdom'),
      import('dompurify'),
    ]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook('uponSanitizeAttribute', (_node, data) => {
      const name = data.attrName.toLowerCase();
      // <use>, <image>, <a>, <feImage>, ...: only a part of this very image, never an
      // address the browser would fetch or follow (a tracker, a script, another origin's data).
      if (name === 'href' || name.endsWith(':href')) {
        data.keepAttr = FRAGMENT.test(data.attrValue.trim());
        return;
      }
      if (name === 'style') {
        const css = safeCss(data.attrValue);
        if (css === null) data.keepAttr = false;
        else data.attrValue = css;
        return;
      }
      // fill="url(https://...)", filter, mask, clip-path, marker-*: a fragment only.
      if (!staysInside(data.attrValue)) data.keepAttr = false;
    });
    purify.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName.toLowerCase() !== 'style') return;
      const css = safeCss(node.textContent ?? '');
      if (css !== node.textContent) node.textContent = css ?? '';
    });
    return { purify, window };
  })();
  return tools;
}

/** The document's root element when `text` parses as XML with an <svg> root; else null. */
function svgRoot(window: DOMWindow, text: string): XmlElement | null {
  const document = new window.DOMParser().parseFromString(text, 'image/svg+xml');
  const root = document.documentElement;
  if (!root || document.getElementsByTagName('parsererror').length > 0) return null;
  if (root.localName !== 'svg' || (root.namespaceURI !== SVG_NS && root.namespaceURI !== null)) return null;
  return root;
}

/**
 * An uploaded SVG made safe to serve from this console's origin (product §1 logo and
 * favicon): DOMPurify's SVG profile drops scripts, event handlers and <foreignObject>; the
 * hooks above drop every link or `url(...)` that leaves the image. Answers the cleaned
 * SVG as XML text, or null when the upload is not an SVG image (an HTML page named
 * logo.svg, broken XML) or nothing of one is left.
 */
export async function sanitizeSvg(text: string): Promise<string | null> {
  const { purify, window } = await loadTools();
  const source = text.replace(/^\uFEFF/, '');
  if (!svgRoot(window, source)) return null;
  const body = purify.sanitize(source, {
    USE_PROFILES: { svg: true, svgFilters: true },
    // Logos repeat a shape with <use href="#shape">; the hook keeps it to this very image.
    ADD_TAGS: ['use'],
    FORBID_TAGS: ['foreignObject', 'foreignobject', 'script'],
    RETURN_DOM: true,
  });
  // RETURN_DOM answers the <body> the input was parsed into.
  const svg = [...(body as unknown as XmlElement).children].find(
    (e) => e.localName === 'svg' && e.namespaceURI === SVG_NS,
  );
  if (!svg) return null;
  const cleaned = new window.XMLSerializer().serializeToString(svg);
  // What the browser will read is XML again: it must still be an <svg> image.
  return svgRoot(window, cleaned) ? cleaned : null;
}
