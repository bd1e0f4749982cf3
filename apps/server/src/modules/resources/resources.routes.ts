import { Readable } from 'node:stream';
import { okBody } from '@fleetgate/shared/schemas/api';
import { pageQuerySchema } from '@fleetgate/shared/schemas/list';
import {
  activateCodeBodySchema,
  activateServiceBodySchema,
  activateServicesBodySchema,
  autoRenewBodySchema,
  buyDataBodySchema,
  codeListQuerySchema,
  companyBalancesSchema,
  creditsSummarySchema,
  dataBoughtSchema,
  dataHistoryQuerySchema,
  dataOverviewSchema,
  dataUsageSchema,
  deviceResourcesMovedSchema,
  deviceServiceSchema,
  moveDeviceResourcesBodySchema,
  movementListQuerySchema,
  movementSchema,
  movePoolsBodySchema,
  newCodeBodySchema,
  newPoolBodySchema,
  quotaSchema,
  redeemedSchema,
  resourceTypeSchema,
  servicesActivatedSchema,
  setQuotaBodySchema,
  transferCodeSchema,
} from '@fleetgate/shared/schemas/resources';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pickFields } from '#src/http/list-query';
import { idParams } from '../../http/params';
import { serviceContext } from '../service-context';
import { dataUsageService } from './data-usage.service';
import { deviceServicesService, sweepServices } from './device-services.service';
import { resourcesService } from './resources.service';

const tags = ['resources'];

/**
 * Resources (product §2 administration.resources, service.add-credits, company resources;
 * §3 newPool, movePools, newCode, activateCode, buyData; §7 GET /credits/summary).
 */
export async function resourcesRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = (request: FastifyRequest) => serviceContext(app, request);
  const manage = { access: { permission: 'manage_credits' as const } };
  const services = { access: { permission: 'update_device_credit_status' as const } };

  // Ended services are renewed or switched off every SERVICE_SWEEP_SECONDS.
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    sweeper = setInterval(
      () =>
        void sweepServices({
          db: app.db,
          gateway: app.gateway,
          log: app.log,
          notifications: app.notifications,
        }).catch((error: unknown) => app.log.warn({ err: error }, 'device service sweep failed')),
      app.config.serviceSweepSeconds * 1000,
    );
    sweeper.unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeper));

  r.get(
    '/api/devices/:id/services',
    {
      config: services,
      schema: {
        tags,
        summary: 'A device’s service: on or off, until when, from what, and whether it renews',
        params: idParams,
        response: { 200: okBody(deviceServiceSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await deviceServicesService.get(ctx(request), request.params.id),
    }),
  );

  r.post(
    '/api/devices/:id/services',
    {
      config: services,
      schema: {
        tags,
        summary: 'Activate a credit or a management pack of the device’s company on the device',
        params: idParams,
        body: activateServiceBodySchema,
        response: { 200: okBody(deviceServiceSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await deviceServicesService.activate(ctx(request), request.params.id, request.body),
      message: 'Service activated successfully',
    }),
  );

  r.post(
    '/api/devices/services',
    {
      config: services,
      schema: {
        tags,
        summary: 'Activate a credit or pack on each of several devices, all or none',
        body: activateServicesBodySchema,
        response: { 200: okBody(servicesActivatedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await deviceServicesService.activateMany(ctx(request), request.body),
      message: 'Service activated successfully',
    }),
  );

  r.post(
    '/api/devices/credits/move',
    {
      config: { access: { permission: 'move_devices_credits' as const } },
      schema: {
        tags,
        summary: 'Move a credit’s remaining days or an unused connection data pack to another device',
        body: moveDeviceResourcesBodySchema,
        response: { 200: okBody(deviceResourcesMovedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await deviceServicesService.moveResources(ctx(request), request.body),
      message: 'Device resources moved successfully',
    }),
  );

  r.put(
    '/api/devices/:id/services',
    {
      config: services,
      schema: {
        tags,
        summary: 'Whether the device’s service renews from the company’s credits when it ends',
        params: idParams,
        body: autoRenewBodySchema,
        response: { 200: okBody(deviceServiceSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await deviceServicesService.setAutoRenew(
        ctx(request),
        request.params.id,
        request.body.auto_renew,
      ),
      message: 'Service updated successfully',
    }),
  );

  r.get(
    '/api/credits/types',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The resource types the caller may name (the super admin: all; others: the paid ones)',
        response: { 200: okBody(z.array(resourceTypeSchema)) },
      },
    },
    async (request) => {
      const data = resourcesService.types(ctx(request));
      return { success: true as const, data, meta: { total: data.length } };
    },
  );

  r.get(
    '/api/credits',
    {
      config: { access: { permission: 'view_credits' as const } },
      schema: {
        tags,
        summary: 'The credit history: pools and every movement of the caller’s companies',
        querystring: movementListQuerySchema,
        response: { 200: okBody(z.array(movementSchema.partial())) },
      },
    },
    async (request) => {
      const { rows, total, fields } = await resourcesService.movements(ctx(request), request.query);
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.get(
    '/api/credits/data-history',
    {
      config: { access: { permission: 'view_company_data_history' as const } },
      schema: {
        tags,
        summary: 'Company data spent per day, device and purpose (remote access, VPN)',
        querystring: dataHistoryQuerySchema,
        response: { 200: okBody(z.array(dataUsageSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await dataUsageService.history(ctx(request), request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.get(
    '/api/credits/data-overview',
    {
      config: { access: { permission: 'view_company_data_history' as const } },
      schema: {
        tags,
        summary: 'Each company’s data left, its pace over 30 days and the day it runs out at that pace',
        querystring: pageQuerySchema,
        response: { 200: okBody(z.array(dataOverviewSchema)) },
      },
    },
    async (request) => {
      const { rows, total } = await dataUsageService.overview(ctx(request), request.query);
      return { success: true as const, data: rows, meta: { total } };
    },
  );

  r.get(
    '/api/credits/report',
    {
      config: { access: { permission: 'view_credits' as const } },
      schema: {
        tags,
        summary: 'The credit report: the movements of a period as CSV',
        querystring: movementListQuerySchema.pick({ company_id: true, from: true, to: true }),
      },
    },
    async (request, reply) => {
      const rows = resourcesService.report(ctx(request), request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="credit-report.csv"')
        .send(Readable.from(rows));
    },
  );

  r.post(
    '/api/credits',
    {
      config: { access: { permission: 'super_admin' as const } },
      schema: {
        tags,
        summary: 'Add resources to a company (product §3 newPool)',
        body: newPoolBodySchema,
        response: { 200: okBody(movementSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.createPool(ctx(request), request.body),
      message: 'Resources added successfully',
    }),
  );

  r.post(
    '/api/credits/move',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Move resources between two of the caller’s companies (product §3 movePools)',
        body: movePoolsBodySchema,
        response: { 200: okBody(movementSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.move(ctx(request), request.body),
      message: 'Resources moved successfully',
    }),
  );

  r.get(
    '/api/credits/summary',
    {
      config: { access: { permission: 'view_credits_summary' as const } },
      schema: {
        tags,
        summary: 'The resources of the caller’s company, type by type (product §7)',
        response: { 200: okBody(creditsSummarySchema) },
      },
    },
    async (request) => ({ success: true as const, data: await resourcesService.summary(ctx(request)) }),
  );

  r.get(
    '/api/credits/codes',
    {
      config: { access: { permission: 'view_credit_transfer_codes' as const } },
      schema: {
        tags,
        summary: 'Transfer codes of the caller’s companies',
        querystring: codeListQuerySchema,
        response: { 200: okBody(z.array(transferCodeSchema.partial())) },
      },
    },
    async (request) => {
      const { rows, total, fields } = await resourcesService.codes(ctx(request), request.query);
      return { success: true as const, data: pickFields(rows, fields), meta: { total } };
    },
  );

  r.post(
    '/api/credits/codes',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a transfer code (product §3 newCode); the resources wait in it until redeemed',
        body: newCodeBodySchema,
        response: { 200: okBody(transferCodeSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.createCode(ctx(request), request.body),
      message: 'Code created successfully',
    }),
  );

  r.delete(
    '/api/credits/codes/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Cancel an unused transfer code; its resources go back to the company',
        params: idParams,
        response: { 200: okBody(transferCodeSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.cancelCode(ctx(request), request.params.id),
      message: 'Code cancelled successfully',
    }),
  );

  r.post(
    '/api/credits/codes/activate',
    {
      config: {
        access: { permission: 'activate_credit_transfer_codes' as const },
        rateLimit: {
          // Enough for typing mistakes, far too few to guess an 80-bit code.
          max: app.config.codeRateLimit,
          timeWindow: '15 minutes',
          keyGenerator: (request: FastifyRequest) => `${request.ip}|${request.auth?.principal.id ?? ''}`,
        },
      },
      schema: {
        tags,
        summary: 'Redeem a transfer code into the caller’s company (product §3 activateCode)',
        body: activateCodeBodySchema,
        response: { 200: okBody(redeemedSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.redeem(ctx(request), request.body),
      message: 'Code activated successfully',
    }),
  );

  r.get(
    '/api/companies/:id/resources',
    {
      config: { access: { permission: 'view_credits' as const } },
      schema: {
        tags,
        summary: 'A company’s resources: credits, packs, data and each type’s count',
        params: idParams,
        response: { 200: okBody(companyBalancesSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.balances(ctx(request), request.params.id),
    }),
  );

  r.get(
    '/api/companies/:id/quotas',
    {
      config: { access: { permission: 'view_credits' as const } },
      schema: {
        tags,
        summary: 'The quotas a parent set on the company: what its own users may still pass on',
        params: idParams,
        response: { 200: okBody(z.array(quotaSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.quotas(ctx(request), request.params.id),
    }),
  );

  r.put(
    '/api/companies/:id/quotas',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Set (or with cap null remove) how much of a type a subsidiary’s own users may pass on',
        params: idParams,
        body: setQuotaBodySchema,
        response: { 200: okBody(z.array(quotaSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.setQuota(ctx(request), request.params.id, request.body),
      message: 'Quota saved successfully',
    }),
  );

  r.post(
    '/api/companies/data',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Buy company data with credits, 2 GB each (product §3 buyData)',
        body: buyDataBodySchema,
        response: { 200: okBody(dataBoughtSchema) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await resourcesService.buyData(ctx(request), request.body),
      message: 'Data bought successfully',
    }),
  );
}
