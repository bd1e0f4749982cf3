/**
 * Generated devices for bench/list.ts, written in SQL (INSERT … SELECT generate_series) so a
 * million rows take seconds to minutes, not the hours the API would need.
 */
import { companiesRepository } from '@fleetgate/server/modules/companies/companies.repository';
import { deviceBuckets } from '@fleetgate/server/modules/devices/device-search.repository';
import { MODELS } from '@fleetgate/shared/devices/catalogue';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** Ten models, five of them RUT routers: the common search pattern 'RUT' matches half the names. */
const MODEL_MIX = [
  'RUTX11',
  'RUT240',
  'RUT955',
  'RUTX12',
  'RUTM50',
  'TRB140',
  'TSW202',
  'TAP100',
  'OTD140',
  'TCR100',
];
const COMPANIES = ['Acme Networks', 'Baltic Telemetry', 'Nordic Fleet', 'Kyiv Transit'];
const CHUNK = 100_000;
const SERIAL_BASE = 1_200_000_000;

/** Serial of the i-th generated device (1-based): a rare search pattern matches exactly it. */
export const generatedSerial = (i: number) => String(SERIAL_BASE + i);

const textArray = (values: readonly string[]) =>
  sql.raw(`(array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}])`);

/** The four companies under the root that own the generated devices. */
export async function createCompanies(app: FastifyInstance): Promise<number[]> {
  const ids: number[] = [];
  for (const name of COMPANIES) {
    const company = await companiesRepository.insert(app.db, { name, parentId: 1 });
    ids.push(company!.id);
  }
  return ids;
}

/**
 * Devices number `from` to `to` over the companies, one row of `device_state` for every
 * device that has connected (two in three), then what the server's hourly maintenance does:
 * the stretches of the name order redrawn (device-search.repository.ts), and VACUUM ANALYZE, as
 * autovacuum does after a bulk load on PostgreSQL. Names look like `RUTX11-0042137`; serials are 1200000000 + i;
 * MACs are unique in 00:1E:42; IMEIs exist for models with a modem.
 */
export async function generateDevices(
  app: FastifyInstance,
  companyIds: readonly number[],
  range: { from: number; to: number },
  log: (line: string) => void,
): Promise<void> {
  const models = textArray(MODEL_MIX);
  const firmwares = textArray(MODEL_MIX.map((m) => MODELS[m]!.firmware));
  const modems = sql.raw(`(array[${MODEL_MIX.map((m) => MODELS[m]!.modems > 0).join(',')}])`);
  const ids = sql.raw(`(array[${companyIds.join(',')}])`);
  const model = sql.raw(`1 + i % ${MODEL_MIX.length}`);
  for (let from = range.from; from <= range.to; from += CHUNK) {
    const to = Math.min(range.to, from + CHUNK - 1);
    const started = performance.now();
    await app.db.execute(sql`
      with created as (
        insert into devices (company_id, serial, mac, name, model, original_model, firmware, imei,
                             status, last_seen_at, created_at)
        select ${ids}[1 + i % ${companyIds.length}],
               (${SERIAL_BASE}::bigint + i)::text,
               '00:1E:42:' || upper(lpad(to_hex((i >> 16) & 255), 2, '0') || ':' ||
                                    lpad(to_hex((i >> 8) & 255), 2, '0') || ':' || lpad(to_hex(i & 255), 2, '0')),
               ${models}[${model}] || '-' || lpad(i::text, 7, '0'),
               ${models}[${model}], ${models}[${model}], ${firmwares}[${model}],
               case when ${modems}[${model}]
                    then '35' || lpad(((i::bigint * 7919) % 10000000000000)::text, 13, '0') end,
               (i % 3)::smallint,
               case when i % 3 <> 2 then now() - (i % 86400) * interval '1 second' end,
               now() - i * interval '1 second'
        from generate_series(${from}::int, ${to}::int) as g(i)
        returning id, status
      )
      insert into device_state (device_id, at, signal, temperature, uptime, operator, network_type,
                                wan_type, wan_ip, payload)
      select id, now(), -60 - id % 40, 40 + id % 15, id % 100000, 'Telia', 'LTE', 'mobile', '100.64.0.1', '{}'
      from created where status <> 2`);
    log(`  devices ${from}–${to}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  // The server's hourly maintenance (gateway.ts): stretches redrawn, then statistics.
  const started = performance.now();
  await deviceBuckets.rebalance(app.db);
  log(`  stretches of the name order redrawn: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await app.db.execute(sql`vacuum analyze`);
}
