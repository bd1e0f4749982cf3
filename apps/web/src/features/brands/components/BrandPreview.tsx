import { BRAND_COLOUR, BRAND_DEFAULTS, type BrandSettings, brandedModel } from '@fleetgate/shared/brand';
import { Box, DEFAULT_THEME, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { paletteOf, readable } from '#src/lib/colour';

const { white, black, colors } = DEFAULT_THEME;
/** Mantine's body, panel, text and border colours of each scheme, which the preview sits on. */
const SCHEMES = {
  light: { background: white, panel: colors.gray[0], text: black, border: colors.gray[3] },
  dark: { background: colors.dark[7], panel: colors.dark[6], text: colors.dark[0], border: colors.dark[4] },
} as const;

/**
 * What the brand will look like, drawn as it is edited, in both schemes: the navigation's
 * logo and names, the primary button, a link and a device of a branded model. The colours
 * go through the same readable shades as the console's theme, so what shows here is what
 * operators get (a main colour too light for white text is shown darkened, as it will be).
 */
export function BrandPreview({ brand }: { brand: BrandSettings }) {
  const { t } = useTranslation('brands');
  const main = BRAND_COLOUR.test(brand.main_color) ? brand.main_color : BRAND_DEFAULTS.main_color;
  const palette = paletteOf(main);
  const sample = brand.branded_devices.find((d) => d.original_model && d.branded_model);
  const model = sample ? brandedModel(brand, { original_model: sample.original_model }) : 'RUTX11';
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" data-testid="brand-preview">
      {(['light', 'dark'] as const).map((scheme) => {
        const colours = SCHEMES[scheme];
        const filled = readable(scheme === 'light' ? palette[6] : palette[8], white);
        const link = readable(scheme === 'light' ? palette[6] : palette[4], colours.background);
        const text =
          scheme === 'dark' && BRAND_COLOUR.test(brand.dark_mode_text_color)
            ? readable(brand.dark_mode_text_color, colours.background)
            : colours.text;
        return (
          <Box
            key={scheme}
            data-testid={`brand-preview-${scheme}`}
            style={{
              background: colours.background,
              color: text,
              border: `1px solid ${colours.border}`,
              borderRadius: 8,
              overflow: 'hidden',
            }}
          >
            <Text size="xs" px="sm" py={4} style={{ background: colours.panel, color: text }}>
              {scheme === 'light' ? t('preview.light') : t('preview.dark')}
            </Text>
            <Group
              gap={8}
              px="sm"
              py="xs"
              wrap="nowrap"
              style={{ borderBottom: `1px solid ${colours.border}` }}
            >
              <img src={brand.logo_vector || '/favicon.svg'} width={24} height={24} alt="" />
              <div style={{ minWidth: 0 }}>
                <Text fw={800} size="sm" lh={1.1} truncate data-testid="brand-preview-app-name">
                  {brand.app_name}
                </Text>
                {brand.logo_subtext && (
                  <Text size="xs" lh={1.1} truncate style={{ opacity: 0.8 }}>
                    {brand.logo_subtext}
                  </Text>
                )}
              </div>
            </Group>
            <Stack gap={6} p="sm">
              <Text size="xs" truncate>
                {brand.title_text}
              </Text>
              <Group gap="xs" wrap="nowrap">
                <span
                  data-testid={`brand-preview-button-${scheme}`}
                  style={{
                    background: filled,
                    color: '#ffffff',
                    borderRadius: 6,
                    padding: '4px 10px',
                    fontSize: 13,
                    fontWeight: 600,
                    whiteSpace: 'nowrap',
                  }}
                >
                  {t('preview.button')}
                </span>
                <span style={{ color: link, fontSize: 13, textDecoration: 'underline' }}>
                  {t('preview.link')}
                </span>
              </Group>
              <Text size="xs">
                {t('preview.device')}: <b data-testid="brand-preview-model">{model}</b>
              </Text>
            </Stack>
          </Box>
        );
      })}
    </SimpleGrid>
  );
}
