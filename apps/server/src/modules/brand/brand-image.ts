import { BRAND_IMAGE_MAX_BYTES, type BrandImageKind } from '@fleetgate/shared/schemas/brand';
import { unprocessable } from '#src/http/errors';
import { sanitizeSvg } from './svg';

export const TOO_LARGE = `The file must be at most ${BRAND_IMAGE_MAX_BYTES / 1024} KB`;
const WRONG_TYPE: Record<BrandImageKind, string> = {
  favicon: 'The favicon must be an SVG, PNG or ICO image',
  logo: 'The logo must be an SVG image',
  model: 'The model picture must be an SVG or PNG image',
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** An ICO file: reserved 0, type 1 (icon), at least one image. */
const isIco = (bytes: Buffer) =>
  bytes.length >= 6 &&
  bytes.readUInt16LE(0) === 0 &&
  bytes.readUInt16LE(2) === 1 &&
  bytes.readUInt16LE(4) > 0;
const isPng = (bytes: Buffer) => bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);

/** The bytes as UTF-8 text, or null when they are not (an SVG is text). */
function utf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * An uploaded brand image as it will be served: judged by its content, never by its name
 * or the type the browser claimed. A favicon may be PNG, ICO or SVG, a model picture PNG
 * or SVG, a logo SVG only; an SVG is sanitised (svg.ts), since it is served from this
 * console's own origin.
 */
export async function acceptBrandImage(
  kind: BrandImageKind,
  bytes: Buffer,
): Promise<{ contentType: string; bytes: Buffer }> {
  if (bytes.length > BRAND_IMAGE_MAX_BYTES) throw unprocessable(TOO_LARGE, 'file');
  if (kind !== 'logo' && isPng(bytes)) return { contentType: 'image/png', bytes };
  if (kind === 'favicon' && isIco(bytes)) return { contentType: 'image/x-icon', bytes };
  const text = utf8(bytes);
  const svg = text === null ? null : await sanitizeSvg(text);
  if (svg === null) throw unprocessable(WRONG_TYPE[kind], 'file');
  return { contentType: 'image/svg+xml', bytes: Buffer.from(svg, 'utf8') };
}
