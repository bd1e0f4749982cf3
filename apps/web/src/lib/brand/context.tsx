import { BRAND_DEFAULTS, type BrandSettings, brandedModel, brandedSeries } from '@fleetgate/shared/brand';
import { createContext, useCallback, useContext } from 'react';

export const BrandContext = createContext<BrandSettings>(BRAND_DEFAULTS);

/** The brand of this console (product §1), on every page, signed in or not. */
export function useBrand(): BrandSettings {
  return useContext(BrandContext);
}

/** How a device's model is named here: the brand's name for its vendor model (product §1). */
export function useModelName(): (device: {
  model?: string | null;
  original_model?: string | null;
}) => string | null {
  const brand = useBrand();
  return useCallback((device) => brandedModel(brand, device), [brand]);
}

/** How a series is named here: the brand's name for it, else the catalogue's in capitals. */
export function useSeriesName(): (series: string | null | undefined) => string | null {
  const brand = useBrand();
  return useCallback(
    (series) => {
      const named = brandedSeries(brand, series);
      return named === series ? (series?.toUpperCase() ?? null) : named;
    },
    [brand],
  );
}
