/**
 * The model catalogue behind the derived capabilities of product §3 and the port and SIM
 * counts of product §9. A model names its series; the series gives the defaults (system,
 * SIM slots per modem) and the model what its hardware has.
 */

export const DEVICE_SERIES = [
  'rut2',
  'rut3',
  'rut9',
  'rutx',
  'rutm',
  'rutc',
  'trb1',
  'trb2',
  'tcr',
  'otd',
  'tsw',
  'swm',
  'tap',
] as const;
export type DeviceSeries = (typeof DEVICE_SERIES)[number];

export type SeriesInfo = {
  /** RutOS (routers, gateways, access points) or TSWOS (managed switches): product §9 'rutos' / 'tswos'. */
  system: 'rutos' | 'tswos';
  /** SIM slots per modem in this series (product §9: 1, 2 or 3). */
  sims: 0 | 1 | 2 | 3;
  kind: 'router' | 'gateway' | 'switch' | 'access_point';
};

export const SERIES: Record<DeviceSeries, SeriesInfo> = {
  rut2: { system: 'rutos', sims: 1, kind: 'router' },
  rut3: { system: 'rutos', sims: 1, kind: 'router' },
  rut9: { system: 'rutos', sims: 2, kind: 'router' },
  rutx: { system: 'rutos', sims: 2, kind: 'router' },
  rutm: { system: 'rutos', sims: 2, kind: 'router' },
  rutc: { system: 'rutos', sims: 2, kind: 'router' },
  trb1: { system: 'rutos', sims: 1, kind: 'gateway' },
  trb2: { system: 'rutos', sims: 1, kind: 'gateway' },
  tcr: { system: 'rutos', sims: 1, kind: 'router' },
  otd: { system: 'rutos', sims: 2, kind: 'router' },
  tsw: { system: 'tswos', sims: 0, kind: 'switch' },
  swm: { system: 'tswos', sims: 0, kind: 'switch' },
  tap: { system: 'rutos', sims: 0, kind: 'access_point' },
};

export type ModelInfo = {
  model: string;
  series: DeviceSeries;
  /** Short marketing description, shown beside the model. */
  title: string;
  /** Ethernet ports (product §9: e.g. RUTX12 5, switches 10, SWM 28). */
  ports: number;
  /** Cellular modems: 0 none, 2 for the second-modem models. */
  modems: 0 | 1 | 2;
  /** SIM slots per modem when the model differs from its series. */
  simsPerModem?: 0 | 1 | 2 | 3;
  wifi: boolean;
  gps: boolean;
  io: boolean;
  esim?: boolean;
  /** Whether one of the ports serves a LAN (an access point's only port is its uplink). */
  lan: boolean;
  /** Firmware prefix of the vendor image, as in `RUTX_R_00.07.14.2`. */
  firmwarePrefix: string;
  /** A firmware a factory-fresh unit reports (used by the simulator and the demo). */
  firmware: string;
};

const m = (info: ModelInfo): ModelInfo => info;

/** Known models, keyed by model name in upper case. */
export const MODELS: Record<string, ModelInfo> = Object.fromEntries(
  [
    m({
      model: 'RUT200',
      series: 'rut2',
      title: 'LTE Cat 4 router',
      ports: 2,
      modems: 1,
      wifi: true,
      gps: false,
      io: true,
      lan: true,
      firmwarePrefix: 'RUT2M',
      firmware: 'RUT2M_R_00.07.14.3',
    }),
    m({
      model: 'RUT240',
      series: 'rut2',
      title: 'LTE Cat 4 router',
      ports: 2,
      modems: 1,
      wifi: true,
      gps: false,
      io: true,
      lan: true,
      firmwarePrefix: 'RUT2',
      firmware: 'RUT2_R_00.07.06.19',
    }),
    m({
      model: 'RUT241',
      series: 'rut2',
      title: 'LTE Cat 4 router with eSIM',
      ports: 2,
      modems: 1,
      wifi: true,
      gps: false,
      io: true,
      esim: true,
      lan: true,
      firmwarePrefix: 'RUT2M',
      firmware: 'RUT2M_R_00.07.14.3',
    }),
    m({
      model: 'RUT360',
      series: 'rut3',
      title: 'LTE Cat 6 router',
      ports: 2,
      modems: 1,
      wifi: true,
      gps: false,
      io: true,
      lan: true,
      firmwarePrefix: 'RUT36X',
      firmware: 'RUT36X_R_00.07.13.4',
    }),
    m({
      model: 'RUT950',
      series: 'rut9',
      title: 'Dual-SIM LTE router',
      ports: 4,
      modems: 1,
      wifi: true,
      gps: false,
      io: true,
      lan: true,
      firmwarePrefix: 'RUT9',
      firmware: 'RUT9_R_00.07.05.4',
    }),
    m({
      model: 'RUT955',
      series: 'rut9',
      title: 'Dual-SIM LTE router with GNSS and serial I/O',
      ports: 4,
      modems: 1,
      wifi: true,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'RUT9',
      firmware: 'RUT9_R_00.07.12.1',
    }),
    m({
      model: 'RUTX09',
      series: 'rutx',
      title: 'Dual-SIM LTE Cat 6 router, no Wi-Fi',
      ports: 4,
      modems: 1,
      wifi: false,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'RUTX',
      firmware: 'RUTX_R_00.07.14.2',
    }),
    m({
      model: 'RUTX10',
      series: 'rutx',
      title: 'Wi-Fi router without modem',
      ports: 4,
      modems: 0,
      wifi: true,
      gps: false,
      io: true,
      lan: true,
      firmwarePrefix: 'RUTX',
      firmware: 'RUTX_R_00.07.14.2',
    }),
    m({
      model: 'RUTX11',
      series: 'rutx',
      title: 'Dual-SIM LTE Cat 6 router with Wi-Fi and GNSS',
      ports: 4,
      modems: 1,
      wifi: true,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'RUTX',
      firmware: 'RUTX_R_00.07.14.2',
    }),
    m({
      model: 'RUTX12',
      series: 'rutx',
      title: 'Dual-modem LTE Cat 6 router',
      ports: 5,
      modems: 2,
      simsPerModem: 1,
      wifi: true,
      gps: true,
      io: false,
      lan: true,
      firmwarePrefix: 'RUTX',
      firmware: 'RUTX_R_00.07.11.3',
    }),
    m({
      model: 'RUTX50',
      series: 'rutx',
      title: 'Dual-SIM 5G router',
      ports: 5,
      modems: 1,
      wifi: true,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'RUTX',
      firmware: 'RUTX_R_00.07.14.2',
    }),
    m({
      model: 'RUTM11',
      series: 'rutm',
      title: 'Dual-SIM LTE Cat 6 router',
      ports: 4,
      modems: 1,
      wifi: true,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'RUTM',
      firmware: 'RUTM_R_00.07.14.1',
    }),
    m({
      model: 'RUTM50',
      series: 'rutm',
      title: 'Dual-SIM 5G router with eSIM',
      ports: 5,
      modems: 1,
      wifi: true,
      gps: true,
      io: true,
      esim: true,
      lan: true,
      firmwarePrefix: 'RUTM',
      firmware: 'RUTM_R_00.07.14.1',
    }),
    m({
      model: 'RUTC50',
      series: 'rutc',
      title: 'Dual-SIM 5G router, Wi-Fi 6',
      ports: 5,
      modems: 1,
      wifi: true,
      gps: true,
      io: false,
      lan: true,
      firmwarePrefix: 'RUTC',
      firmware: 'RUTC_R_00.07.14.1',
    }),
    m({
      model: 'TRB140',
      series: 'trb1',
      title: 'LTE Cat 4 industrial gateway',
      ports: 1,
      modems: 1,
      wifi: false,
      gps: false,
      io: true,
      lan: true,
      firmwarePrefix: 'TRB1',
      firmware: 'TRB1_R_00.07.09.2',
    }),
    m({
      model: 'TRB245',
      series: 'trb2',
      title: 'LTE Cat 4 gateway with GNSS and RS232/RS485',
      ports: 1,
      modems: 1,
      simsPerModem: 2,
      wifi: false,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'TRB2',
      firmware: 'TRB2_R_00.07.13.1',
    }),
    m({
      model: 'TRB255',
      series: 'trb2',
      title: 'LTE Cat M1/NB-IoT gateway with GNSS',
      ports: 1,
      modems: 1,
      wifi: false,
      gps: true,
      io: true,
      lan: true,
      firmwarePrefix: 'TRB2',
      firmware: 'TRB2_R_00.07.13.1',
    }),
    m({
      model: 'TCR100',
      series: 'tcr',
      title: 'LTE Cat 6 home router',
      ports: 2,
      modems: 1,
      wifi: true,
      gps: false,
      io: false,
      lan: true,
      firmwarePrefix: 'TCR1',
      firmware: 'TCR1_R_00.07.04.5',
    }),
    m({
      model: 'OTD140',
      series: 'otd',
      title: 'Outdoor LTE router, PoE',
      ports: 2,
      modems: 1,
      wifi: false,
      gps: false,
      io: false,
      lan: true,
      firmwarePrefix: 'OTD1',
      firmware: 'OTD1_R_00.07.13.2',
    }),
    m({
      model: 'OTD500',
      series: 'otd',
      title: 'Outdoor 5G router, PoE',
      ports: 2,
      modems: 1,
      wifi: false,
      gps: false,
      io: false,
      lan: true,
      firmwarePrefix: 'OTD5',
      firmware: 'OTD5_R_00.07.14.2',
    }),
    m({
      model: 'TSW202',
      series: 'tsw',
      title: 'Managed PoE+ switch, 8 ports and 2 SFP',
      ports: 10,
      modems: 0,
      wifi: false,
      gps: false,
      io: false,
      lan: true,
      firmwarePrefix: 'TSW2',
      firmware: 'TSW2_R_00.01.04.1',
    }),
    m({
      model: 'TSW212',
      series: 'tsw',
      title: 'Managed switch, 8 ports and 2 SFP',
      ports: 10,
      modems: 0,
      wifi: false,
      gps: false,
      io: false,
      lan: true,
      firmwarePrefix: 'TSW2',
      firmware: 'TSW2_R_00.01.04.1',
    }),
    m({
      model: 'SWM240',
      series: 'swm',
      title: 'Managed L2 switch, 24 ports and 4 SFP',
      ports: 28,
      modems: 0,
      wifi: false,
      gps: false,
      io: false,
      lan: true,
      firmwarePrefix: 'SWM',
      firmware: 'SWM_R_00.01.02.0',
    }),
    m({
      model: 'TAP100',
      series: 'tap',
      title: 'Wi-Fi access point, PoE',
      ports: 1,
      modems: 0,
      wifi: true,
      gps: false,
      io: false,
      lan: false,
      firmwarePrefix: 'TAP100',
      firmware: 'TAP100_R_00.07.14.1',
    }),
    m({
      model: 'TAP200',
      series: 'tap',
      title: 'Wi-Fi 5 access point, PoE',
      ports: 1,
      modems: 0,
      wifi: true,
      gps: false,
      io: false,
      lan: false,
      firmwarePrefix: 'TAP200',
      firmware: 'TAP200_R_00.07.14.1',
    }),
  ].map((info) => [info.model, info]),
);

/** Model names in catalogue order. */
export const MODEL_NAMES: readonly string[] = Object.keys(MODELS);

/** Series guessed from a model name the catalogue does not know (`RUTX14` → rutx). */
const SERIES_PREFIXES: readonly [string, DeviceSeries][] = [
  ['RUTX', 'rutx'],
  ['RUTM', 'rutm'],
  ['RUTC', 'rutc'],
  ['RUT2', 'rut2'],
  ['RUT3', 'rut3'],
  ['RUT9', 'rut9'],
  ['TRB1', 'trb1'],
  ['TRB2', 'trb2'],
  ['TCR', 'tcr'],
  ['OTD', 'otd'],
  ['TSW', 'tsw'],
  ['SWM', 'swm'],
  ['TAP', 'tap'],
];

export function seriesOfModel(model: string | null | undefined): DeviceSeries | null {
  if (!model) return null;
  const upper = model.trim().toUpperCase();
  const known = MODELS[upper];
  if (known) return known.series;
  return SERIES_PREFIXES.find(([prefix]) => upper.startsWith(prefix))?.[1] ?? null;
}

/** The catalogue entry of a model, if known. */
export function findModel(model: string | null | undefined): ModelInfo | undefined {
  return model ? MODELS[model.trim().toUpperCase()] : undefined;
}
