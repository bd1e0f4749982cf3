/**
 * Elements for the sign-in page, which draws itself without a framework. Text is always
 * appended as text nodes, so a brand's name or a server's message can never become markup.
 */

type Child = Node | string | false | null | undefined;
type Attributes = Record<string, string | boolean | undefined>;

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (typeof value === 'string') element.setAttribute(name, value);
  }
}

/** An HTML element with its attributes (true: present, false or undefined: absent) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  setAttributes(element, attributes);
  element.append(...children.filter((child): child is Node | string => Boolean(child)));
  return element;
}

/** A 24×24 outline icon drawn from path data, hidden from assistive technology. */
export function icon(...paths: string[]): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  setAttributes(svg, {
    viewBox: '0 0 24 24',
    width: '18',
    height: '18',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  });
  for (const d of paths) {
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}

/**
 * A button at work says so (aria-busy: a turning ring in place of its label) and takes no
 * second press, without `disabled`, which would drop the keyboard focus from it.
 */
export function setBusy(button: HTMLButtonElement, on: boolean): void {
  for (const name of ['aria-busy', 'aria-disabled']) {
    if (on) button.setAttribute(name, 'true');
    else button.removeAttribute(name);
  }
}

export const isBusy = (button: HTMLButtonElement): boolean => button.getAttribute('aria-busy') === 'true';

export type Field = { input: HTMLInputElement; error: HTMLElement; element: HTMLElement };

/**
 * A labelled input (`id`, named the same unless `attributes` say otherwise) with the line
 * under it where its error shows; `around` may wrap the input.
 */
export function field(
  id: string,
  label: string,
  attributes: Attributes,
  around: (input: HTMLInputElement) => Node = (input) => input,
): Field {
  const input = h('input', { id, name: id, 'aria-describedby': `${id}-error`, ...attributes });
  const error = h('p', { id: `${id}-error`, class: 'field-error' });
  const element = h('div', { class: 'field' }, h('label', { for: id }, label), around(input), error);
  return { input, error, element };
}

/** A field's error under it, or none; the input says whether it is invalid. */
export function showFieldError(target: Field, message: string | undefined): void {
  target.error.textContent = message ?? '';
  target.input.setAttribute('aria-invalid', message ? 'true' : 'false');
}
