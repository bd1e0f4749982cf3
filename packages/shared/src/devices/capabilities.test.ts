import { describe, expect, it } from 'vitest';
import { deriveCapabilities } from './capabilities';
import { MODELS } from './catalogue';
import { compareVersions, firmwareBefore, firmwareVersion } from './firmware';

describe('firmware versions (product §5, §9)', () => {
  it('reads the version of a vendor image name and of a bare version', () => {
    expect(firmwareVersion('RUTX_R_00.07.14.2')).toBe('07.14.2');
    expect(firmwareVersion('RUT9_R_00.07.05.4')).toBe('07.05.4');
    expect(firmwareVersion('TSW2_R_00.01.04.1')).toBe('01.04.1');
    expect(firmwareVersion('7.13')).toBe('7.13');
    expect(firmwareVersion('v07.06.1')).toBe('07.06.1');
    expect(firmwareVersion('not a version')).toBeNull();
    expect(firmwareVersion(null)).toBeNull();
  });

  it('compares numerically, not as text', () => {
    expect(compareVersions('07.9', '07.13')).toBeLessThan(0);
    expect(compareVersions('07.13', '07.13.0')).toBe(0);
    expect(compareVersions('07.13.1', '07.13')).toBeGreaterThan(0);
    expect(compareVersions('8', '07.99')).toBeGreaterThan(0);
  });

  it('says a firmware is before a threshold only when its version is known', () => {
    expect(firmwareBefore('RUTX_R_00.07.12.9', '07.13')).toBe(true);
    expect(firmwareBefore('RUTX_R_00.07.13', '07.13')).toBe(false);
    expect(firmwareBefore('garbage', '07.13')).toBe(false);
  });
});

describe('derived capabilities (product §3, §9)', () => {
  it('gives the port counts of product §9: RUTX12 5, switches 10, SWM 28', () => {
    expect(deriveCapabilities({ model: 'RUTX12', firmware: null }).port_count).toBe(5);
    expect(deriveCapabilities({ model: 'TSW202', firmware: null }).port_count).toBe(10);
    expect(deriveCapabilities({ model: 'TSW212', firmware: null }).port_count).toBe(10);
    expect(deriveCapabilities({ model: 'SWM240', firmware: null }).port_count).toBe(28);
    // an unknown switch model still has the series' port count
    expect(deriveCapabilities({ model: 'TSW299', firmware: null }).port_count).toBe(10);
  });

  it('derives SIM counts from the series (1, 2 or 3), second-modem models doubling (product §9)', () => {
    expect(deriveCapabilities({ model: 'RUT240', firmware: null }).sim_count).toBe(1);
    expect(deriveCapabilities({ model: 'RUT955', firmware: null }).sim_count).toBe(2);
    expect(deriveCapabilities({ model: 'RUTX11', firmware: null }).sim_count).toBe(2);
    const rutx12 = deriveCapabilities({ model: 'RUTX12', firmware: null });
    expect(rutx12.has_second_modem).toBe(true);
    expect(rutx12.sim_count).toBe(2); // one slot per modem, doubled
    expect(deriveCapabilities({ model: 'TSW202', firmware: null }).sim_count).toBe(0);
    expect(deriveCapabilities({ model: 'TAP100', firmware: null }).sim_count).toBe(0);
    for (const info of Object.values(MODELS)) {
      expect([0, 1, 2, 3, 4, 6]).toContain(
        deriveCapabilities({ model: info.model, firmware: null }).sim_count,
      );
    }
  });

  it('marks legacy alerts before 07.13 and legacy VPN before 07.06 on RutOS', () => {
    const old = deriveCapabilities({ model: 'RUT240', firmware: 'RUT2_R_00.07.05.4' });
    expect(old).toMatchObject({ has_legacy_alerts: true, has_legacy_vpn: true, fw_version: '07.05.4' });
    const mid = deriveCapabilities({ model: 'RUT240', firmware: 'RUT2_R_00.07.06.0' });
    expect(mid).toMatchObject({ has_legacy_alerts: true, has_legacy_vpn: false });
    const fresh = deriveCapabilities({ model: 'RUTX11', firmware: 'RUTX_R_00.07.13.0' });
    expect(fresh).toMatchObject({ has_legacy_alerts: false, has_legacy_vpn: false });
    // a switch's TSWOS numbering is not compared with RutOS thresholds
    const sw = deriveCapabilities({ model: 'TSW202', firmware: 'TSW2_R_00.01.04.1' });
    expect(sw).toMatchObject({ has_rutos: false, has_legacy_alerts: false, has_legacy_vpn: false });
  });

  it('derives hardware features from the catalogue', () => {
    expect(deriveCapabilities({ model: 'RUTX11', firmware: 'RUTX_R_00.07.14.2' })).toMatchObject({
      device_series: 'rutx',
      has_wifi: true,
      has_gps: true,
      has_rutos: true,
      has_mobile: true,
      has_hotspot: true,
      has_data_usage: true,
      has_vpn: true,
      has_l2tp: true,
      has_ddns: true,
      has_network_map: true,
      has_esim: false,
    });
    expect(deriveCapabilities({ model: 'TRB140', firmware: null })).toMatchObject({
      has_wifi: false,
      has_gps: false,
      has_io: true,
      has_hotspot: false,
      port_count: 1,
    });
    expect(deriveCapabilities({ model: 'RUTM50', firmware: null })).toMatchObject({
      has_esim: true,
      has_gps: true,
    });
    expect(deriveCapabilities({ model: 'TAP200', firmware: null })).toMatchObject({
      has_wifi: true,
      has_hotspot: false,
      has_mobile: false,
      has_lan: false,
      has_vpn: false,
    });
    expect(deriveCapabilities({ model: 'RUTX10', firmware: null })).toMatchObject({
      has_mobile: false,
      has_data_usage: false,
      sim_count: 0,
    });
  });

  it('prefers the original model of a branded device (product §1 branded_devices)', () => {
    const branded = deriveCapabilities({ model: 'ACME-5G', original_model: 'RUTM50', firmware: null });
    expect(branded.device_series).toBe('rutm');
    expect(branded.has_esim).toBe(true);
  });

  it('knows nothing about an unknown model of an unknown series', () => {
    const unknown = deriveCapabilities({ model: 'XYZ1', firmware: '1.0' });
    expect(unknown).toMatchObject({ device_series: null, has_rutos: false, port_count: 0, sim_count: 0 });
  });
});
