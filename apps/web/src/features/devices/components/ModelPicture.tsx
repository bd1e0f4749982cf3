import { brandedModel, brandedModelImage } from '@fleetgate/shared/brand';
import { SERIES, seriesOfModel } from '@fleetgate/shared/devices/catalogue';
import { useBrand } from '#src/lib/brand/context';
import classes from './ModelPicture.module.css';

type Family = 'router' | 'gateway' | 'switch' | 'access_point' | 'outdoor' | 'unknown';

/** The family a model's picture shows (product §3 device_series; the catalogue's kind). */
export function familyOf(model: string | null | undefined): Family {
  const series = seriesOfModel(model);
  if (!series) return 'unknown';
  if (series === 'otd') return 'outdoor';
  return SERIES[series].kind;
}

/** One small drawing per family: inline, so the table never waits for an image. */
function Shape({ family }: { family: Family }) {
  switch (family) {
    case 'router':
      return (
        <>
          <rect x="4" y="20" width="40" height="16" rx="3" fill="currentColor" opacity="0.85" />
          <line x1="12" y1="20" x2="8" y2="6" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          <line
            x1="36"
            y1="20"
            x2="40"
            y2="6"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
          />
          <circle cx="12" cy="28" r="2" fill="#fff" />
          <circle cx="19" cy="28" r="2" fill="#fff" />
          <circle cx="26" cy="28" r="2" fill="#fff" />
        </>
      );
    case 'gateway':
      return (
        <>
          <rect x="10" y="8" width="28" height="32" rx="4" fill="currentColor" opacity="0.85" />
          <line x1="24" y1="8" x2="24" y2="2" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          <circle cx="24" cy="18" r="3" fill="#fff" />
          <rect x="16" y="28" width="16" height="4" rx="1" fill="#fff" />
        </>
      );
    case 'switch':
      return (
        <>
          <rect x="2" y="16" width="44" height="16" rx="2" fill="currentColor" opacity="0.85" />
          {[7, 13, 19, 25, 31, 37].map((x) => (
            <rect key={x} x={x} y="21" width="4" height="6" fill="#fff" />
          ))}
        </>
      );
    case 'access_point':
      return (
        <>
          <ellipse cx="24" cy="30" rx="18" ry="8" fill="currentColor" opacity="0.85" />
          <path d="M14 16a14 14 0 0 1 20 0" stroke="currentColor" strokeWidth="2.5" fill="none" />
          <path d="M18 20a8 8 0 0 1 12 0" stroke="currentColor" strokeWidth="2.5" fill="none" />
          <circle cx="24" cy="30" r="2" fill="#fff" />
        </>
      );
    case 'outdoor':
      return (
        <>
          <rect x="14" y="4" width="20" height="34" rx="6" fill="currentColor" opacity="0.85" />
          <rect x="22" y="38" width="4" height="8" fill="currentColor" />
          <circle cx="24" cy="14" r="3" fill="#fff" />
        </>
      );
    default:
      return (
        <>
          <rect x="8" y="12" width="32" height="24" rx="4" fill="currentColor" opacity="0.5" />
          <text x="24" y="29" textAnchor="middle" fontSize="14" fill="#fff">
            ?
          </text>
        </>
      );
  }
}

const FAMILIES: readonly Family[] = ['router', 'gateway', 'switch', 'access_point', 'outdoor', 'unknown'];
const symbolId = (family: Family) => `fg-model-${family}`;

/**
 * Every family's drawing once, hidden, for the pictures drawn `fromSprites` to point at: a
 * table's fifty pictures are then one element each instead of seven.
 */
export function ModelSprites() {
  return (
    <svg aria-hidden="true" width="0" height="0" style={{ position: 'absolute' }}>
      {FAMILIES.map((family) => (
        <symbol key={family} id={symbolId(family)} viewBox="0 0 48 48">
          <Shape family={family} />
        </symbol>
      ))}
    </svg>
  );
}

/** The model's picture. */
export function ModelPicture({
  device,
  size = 28,
  fromSprites = false,
}: {
  device: { model?: string | null; original_model?: string | null };
  size?: number;
  /** Points at the drawing of `ModelSprites`, which the caller draws once. */
  fromSprites?: boolean;
}) {
  const brand = useBrand();
  const name = brandedModel(brand, device) ?? '';
  const image = brandedModelImage(brand, device);
  if (image) return <img src={image} width={size} height={size} alt={name} className={classes.picture} />;
  const family = familyOf(device.original_model ?? device.model);
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 48 48"
      role="img"
      aria-label={name}
      data-family={family}
      className={classes.picture}
    >
      {fromSprites ? <use href={`#${symbolId(family)}`} /> : <Shape family={family} />}
    </svg>
  );
}
