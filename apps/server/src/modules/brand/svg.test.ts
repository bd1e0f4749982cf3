import { describe, expect, it } from 'vitest';
import { sanitizeSvg } from './svg';

const svg = (inner: string, attributes = '') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24"${attributes}>${inner}</svg>`;

describe('sanitizeSvg: an uploaded SVG served from the console’s own origin', () => {
  it('keeps a harmless logo’s shapes, gradients and same-image references', async () => {
    const logo = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#1c7ed6"/><stop offset="1" stop-color="#fff"/></linearGradient>' +
        '<path id="mark" d="M2 2h20v20H2z"/></defs>' +
        '<use xlink:href="#mark" fill="url(#g)"/><circle cx="12" cy="12" r="4" style="fill:url(\'#g\');opacity:.5"/>' +
        '<text x="2" y="20" font-family="sans-serif">Acme</text>',
    );
    const cleaned = await sanitizeSvg(logo);
    expect(cleaned).not.toBeNull();
    for (const kept of [
      '<linearGradient id="g">',
      '<path id="mark" d="M2 2h20v20H2z"/>',
      'xlink:href="#mark"',
      'fill="url(#g)"',
      'style="fill:url(\'#g\');opacity:.5"',
      '>Acme</text>',
      'viewBox="0 0 24 24"',
    ])
      expect(cleaned).toContain(kept);
    expect(cleaned).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('removes <script>, in the image and inside its shapes', async () => {
    const cleaned = await sanitizeSvg(
      svg(
        '<script>alert(1)</script><g><script type="text/ecmascript">fetch("/api/user")</script><rect width="5" height="5"/></g>',
      ),
    );
    expect(cleaned).not.toMatch(/script|alert|fetch/);
    expect(cleaned).toContain('<rect width="5" height="5"/>');
  });

  it('removes event handlers such as onload and onclick', async () => {
    const cleaned = await sanitizeSvg(
      svg('<rect width="5" height="5" onclick="alert(2)"/>', ' onload="alert(1)"'),
    );
    expect(cleaned).not.toMatch(/onload|onclick|alert/);
    expect(cleaned).toContain('<rect width="5" height="5"/>');
  });

  it('removes an external xlink:href or href on <image>, <use> and <a>', async () => {
    const cleaned = await sanitizeSvg(
      svg(
        '<image xlink:href="https://evil.test/track.png" width="5" height="5"/>' +
          '<image href="data:image/svg+xml;base64,PHN2Zy8+" width="5" height="5"/>' +
          '<use xlink:href="https://evil.test/sprite.svg#icon"/><use href="/api/user#x"/>' +
          '<a xlink:href="javascript:alert(1)"><circle r="3"/></a>',
      ),
    );
    expect(cleaned).not.toMatch(/evil|data:|javascript|\/api\/user/);
    expect(cleaned).toContain('<circle r="3"/>');
  });

  it('removes a url(...) to another address from style attributes, <style> and presentation attributes', async () => {
    const cleaned = await sanitizeSvg(
      svg(
        '<style>rect { fill: url(https://evil.test/a.svg#p) } .ok { fill: url(#g) }</style>' +
          '<rect width="5" height="5" style="background:url(https://evil)"/>' +
          '<rect width="5" height="5" filter="url(https://evil.test/f.svg#f)"/>',
      ),
    );
    expect(cleaned).not.toContain('evil');
    expect(cleaned).toContain('.ok { fill: url(#g) }');
    expect(cleaned).toContain('style="background:none"');
  });

  it('drops CSS that could fetch without url(...) or hide one in escapes', async () => {
    const cleaned = await sanitizeSvg(
      svg(
        '<style>@import "https://evil.test/a.css";</style>' +
          '<rect width="5" height="5" style="background:u\\72l(https://evil.test/x)"/>',
      ),
    );
    expect(cleaned).not.toContain('evil');
  });

  it('removes <foreignObject> with the HTML inside it', async () => {
    const cleaned = await sanitizeSvg(
      svg(
        '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.test"></iframe></div></foreignObject><rect width="5" height="5"/>',
      ),
    );
    expect(cleaned).not.toMatch(/foreignObject|iframe|evil|<div/i);
    expect(cleaned).toContain('<rect width="5" height="5"/>');
  });

  it('refuses what is not an SVG image: an HTML page, broken XML, another root, plain text', async () => {
    expect(
      await sanitizeSvg(
        `<!DOCTYPE html><html><body><script>alert(1)</script>${svg('<rect width="1" height="1"/>')}</body></html>`,
      ),
    ).toBeNull();
    expect(await sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>')).toBeNull();
    expect(await sanitizeSvg('<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>')).toBeNull();
    expect(await sanitizeSvg('hello')).toBeNull();
  });

  it('accepts an editor’s export with an XML declaration and a DOCTYPE', async () => {
    const cleaned = await sanitizeSvg(
      '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
        svg('<path d="M0 0h24v24H0z" fill="#1c7ed6"/>'),
    );
    expect(cleaned).toContain('<path d="M0 0h24v24H0z" fill="#1c7ed6"/>');
  });
});
