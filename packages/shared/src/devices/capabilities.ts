import { type DeviceSeries, findModel, SERIES, seriesOfModel } from './catalogue';
import { FIRMWARE_THRESHOLDS, firmwareAtLeast, firmwareBefore, firmwareVersion } from './firmware';

/** The derived device capabilities of product §3. */
export type DeviceCapabilities = {
  device_series: DeviceSeries | null;
  fw_version: string | null;
  has_wifi: boolean;
  has_gps: boolean;
  has_rutos: boolean;
  has_mobile: boolean;
  port_count: number;
  has_lan: boolean;
  has_hotspot: boolean;
  sim_count: number;
  has_io: boolean;
  has_ddns: boolean;
  has_data_usage: boolean;
  has_l2tp: boolean;
  has_second_modem: boolean;
  has_network_map: boolean;
  has_esim: boolean;
  has_webfilter: boolean;
  has_vpn: boolean;
  has_legacy_alerts: boolean;
  has_legacy_vpn: boolean;
};

export type CapabilityInput = {
  model: string | null | undefined;
  /** The vendor model behind a branded one (product §1 branded_devices); preferred when set. */
  original_model?: string | null | undefined;
  firmware: string | null | undefined;
};

/**
 * Derives the capabilities of product §3 from model and firmware. The hardware comes from
 * the catalogue (an unknown model of a known series gets the series' defaults and no
 * optional hardware); the firmware thresholds are those of product §9.
 */
export function deriveCapabilities(input: CapabilityInput): DeviceCapabilities {
  const model = input.original_model?.trim() || input.model?.trim() || null;
  const info = findModel(model);
  const series = info?.series ?? seriesOfModel(model);
  const seriesInfo = series ? SERIES[series] : undefined;
  const rutos = seriesInfo?.system === 'rutos';
  const router =
    seriesInfo !== undefined && seriesInfo.kind !== 'switch' && seriesInfo.kind !== 'access_point';

  const modems = info?.modems ?? (router && (seriesInfo?.sims ?? 0) > 0 ? 1 : 0);
  const mobile = modems > 0;
  const simsPerModem = info?.simsPerModem ?? seriesInfo?.sims ?? 0;
  // product §9: SIM counts derive from the series (1, 2 or 3), second-modem models doubling.
  const simCount = mobile ? simsPerModem * (modems === 2 ? 2 : 1) : 0;
  const wifi = info?.wifi ?? false;

  return {
    device_series: series,
    fw_version: firmwareVersion(input.firmware),
    has_wifi: wifi,
    has_gps: info?.gps ?? false,
    has_rutos: rutos,
    has_mobile: mobile,
    port_count: info?.ports ?? (series === 'tsw' ? 10 : series === 'swm' ? 28 : 0),
    has_lan: info?.lan ?? router,
    has_hotspot: rutos && wifi && router,
    sim_count: simCount,
    has_io: info?.io ?? false,
    has_ddns: rutos && router,
    has_data_usage: mobile,
    has_l2tp: rutos && router,
    has_second_modem: modems === 2,
    has_network_map: rutos && firmwareAtLeast(input.firmware, FIRMWARE_THRESHOLDS.networkMapFrom),
    has_esim: info?.esim ?? false,
    has_webfilter: rutos && router,
    has_vpn: rutos && router,
    // product §9: legacy alerts before 07.13, legacy VPN before 07.06 (RutOS numbering).
    has_legacy_alerts: rutos && firmwareBefore(input.firmware, FIRMWARE_THRESHOLDS.legacyAlertsBefore),
    has_legacy_vpn: rutos && firmwareBefore(input.firmware, FIRMWARE_THRESHOLDS.legacyVpnBefore),
  };
}
