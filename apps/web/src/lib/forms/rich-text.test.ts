import { describe, expect, it } from 'vitest';
import { richTextHtml } from './rich-text';

describe('rich text display (product §5)', () => {
  it('keeps a, b, i, em, strong with their allowed attributes', () => {
    expect(richTextHtml('<b class="x" id="y">bold</b> <em>e</em> <i>i</i> <strong>s</strong>')).toBe(
      '<b class="x">bold</b> <em>e</em> <i>i</i> <strong>s</strong>',
    );
    expect(richTextHtml('<a href="https://example.com" target="_blank" class="l" onclick="x()">go</a>')).toBe(
      '<a href="https://example.com" target="_blank" class="l" rel="noopener noreferrer">go</a>',
    );
  });

  it('shows every other tag escaped, as text', () => {
    const html = richTextHtml('<u>under</u><script>alert(1)</script><img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<(u|script|img)/i);
    const box = document.createElement('div');
    box.innerHTML = html;
    // As the server stores it: escaped tags without their attributes, a void tag closed.
    expect(box.textContent).toBe('<u>under</u><script>alert(1)</script><img />');
    expect(box.querySelector('script,img,u')).toBeNull();
    box.innerHTML = richTextHtml('<div class="d"><b>x</b></div><br><span title="t">y</span>');
    expect(box.textContent).toBe('<div>x</div><br /><span>y</span>');
  });

  it('drops links with schemes outside http, https, ftp, mailto, tel', () => {
    expect(richTextHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(richTextHtml('<a href="data:text/html,hi">x</a>')).toBe('<a>x</a>');
    expect(richTextHtml('<a href="tel:+4712345678">t</a><a href="ftp://f.example">f</a>')).toBe(
      '<a href="tel:+4712345678">t</a><a href="ftp://f.example">f</a>',
    );
    expect(richTextHtml('<a href="https://x.example" target="_top">x</a>')).toBe(
      '<a href="https://x.example">x</a>',
    );
  });

  it('escapes text that looks like markup and keeps server-escaped text as text', () => {
    const box = document.createElement('div');
    box.innerHTML = richTextHtml('a &lt;b&gt; c & d');
    expect(box.textContent).toBe('a <b> c & d');
    expect(box.querySelector('b')).toBeNull();
  });
});
