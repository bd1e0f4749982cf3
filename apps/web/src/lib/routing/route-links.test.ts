import { afterEach, describe, expect, it, vi } from 'vitest';
import { followRouteLinks } from './route-links';

function anchor(href: string, attributes: Record<string, string> = { 'data-route-link': 'true' }) {
  const a = document.createElement('a');
  a.href = href;
  a.setAttribute('href', href);
  for (const [name, value] of Object.entries(attributes)) a.setAttribute(name, value);
  a.innerHTML = '<span>name</span>';
  document.body.append(a);
  return a;
}

describe('plain route links in table cells', () => {
  const navigate = vi.fn();
  let stop = () => {};
  afterEach(() => {
    stop();
    navigate.mockReset();
    document.body.innerHTML = '';
  });

  it('a plain left click goes through the router, also from inside the anchor', () => {
    stop = followRouteLinks({ navigate });
    const a = anchor('/devices/7/info');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    a.querySelector('span')!.dispatchEvent(click);
    expect(navigate).toHaveBeenCalledWith('/devices/7/info');
    expect(click.defaultPrevented).toBe(true);
  });

  it('keeps the query and the fragment of the address', () => {
    stop = followRouteLinks({ navigate });
    anchor('/devices?company_id=3#top').click();
    expect(navigate).toHaveBeenCalledWith('/devices?company_id=3#top');
  });

  it('leaves modified clicks, other targets, foreign addresses and unmarked anchors to the browser', () => {
    stop = followRouteLinks({ navigate });
    const clicks = [
      [anchor('/devices/7/info'), { ctrlKey: true }],
      [anchor('/devices/7/info'), { metaKey: true }],
      [anchor('/devices/7/info'), { shiftKey: true }],
      [anchor('/devices/7/info'), { button: 1 }],
      [anchor('/devices/7/info', { 'data-route-link': 'true', target: '_blank' }), {}],
      [anchor('//evil.example/x'), {}],
      [anchor('/\\evil.example/x'), {}],
      [anchor('https://evil.example/x'), {}],
      [anchor('/devices/7/info', {}), {}],
    ] as const;
    for (const [a, init] of clicks) {
      const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
      a.dispatchEvent(click);
      expect(click.defaultPrevented).toBe(false);
    }
    expect(navigate).not.toHaveBeenCalled();
  });

  it('stops following once removed', () => {
    followRouteLinks({ navigate })();
    anchor('/devices/7/info').click();
    expect(navigate).not.toHaveBeenCalled();
  });
});
