import { useBrand } from '#src/lib/brand/context';

/**
 * The brand's vector logo, or the product's mark when it has none (product §1). A plain
 * image: the sign-in page shows it and carries no image component for it.
 */
export function BrandMark({ size }: { size: number }) {
  const brand = useBrand();
  return <img src={brand.logo_vector || '/favicon.svg'} width={size} height={size} alt="" />;
}
