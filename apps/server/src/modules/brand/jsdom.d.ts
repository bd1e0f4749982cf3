/**
 * The little of jsdom that svg.ts uses. jsdom's own types (@types/jsdom) bring the
 * browser's DOM types into every program that reaches them, and the server is compiled
 * without those on purpose: its globals (`performance`, `fetch`, ...) are Node's.
 */
declare module 'jsdom' {
  export type XmlElement = {
    readonly localName: string;
    readonly namespaceURI: string | null;
    readonly children: ArrayLike<XmlElement> & Iterable<XmlElement>;
  };
  export type XmlDocument = {
    readonly documentElement: XmlElement | null;
    getElementsByTagName(name: string): { readonly length: number };
  };
  export type DOMWindow = {
    DOMParser: new () => { parseFromString(text: string, type: 'image/svg+xml'): XmlDocument };
    XMLSerializer: new () => { serializeToString(node: XmlElement): string };
  };
  export class JSDOM {
    constructor(html?: string);
    readonly window: DOMWindow;
  }
}
