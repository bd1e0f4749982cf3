import { createHash, randomBytes } from 'node:crypto';
import { SHAREABLE_PROTOCOLS, type ShareLinkBody } from '@fleetgate/shared/schemas/remote';
import type { Db } from '#src/db/database';
import { AppError, badRequest, conflict, notFound } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { callerAudit, type ServiceContext } from '../service-context';
import { remoteRepository } from './remote.repository';
import { remoteService } from './remote.service';

/** 256 random bits, base64url: guessed by nobody, kept only as its SHA-256. */
const KEY_BYTES = 32;
const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** The launcher a shared entry opens in (product §2: /rms-connect/ssh and /rms-connect/desktop take a key). */
const SCREEN = { ssh: 'ssh', vnc: 'desktop' } as const;
type Shareable = keyof typeof SCREEN;
const shareable = (protocol: string): protocol is Shareable =>
  (SHAREABLE_PROTOCOLS as readonly string[]).includes(protocol);

export const SHARE_LINK_INVALID = 'This share link is not valid, or it has expired';

/**
 * Share links (product §2: the ssh and desktop launchers with a key skip sign-in): whoever holds
 * the link opens one SSH or VNC entry without a Fleetgate account until it expires (a day at
 * most) or is revoked. The link acts for its creator: its sessions are theirs in the access
 * history, marked as opened with the link, and they end with the creator's right to the
 * device or their sign-in (docs/decisions.md, Remote access).
 */
export const shareLinksService = {
  async create(ctx: ServiceContext, body: ShareLinkBody) {
    const entry = await remoteService.entry(ctx, body.entry_id);
    if (!shareable(entry.protocol)) throw badRequest('Share links open SSH and VNC entries only', 'entry_id');
    if (!entry.enabled) throw conflict('The remote entry is disabled');
    const key = randomBytes(KEY_BYTES).toString('base64url');
    const expiresAt = new Date(Date.now() + body.minutes * 60_000);
    const id = await audited(
      ctx.db,
      (tx) =>
        remoteRepository.insertShareLink(tx, {
          entryId: entry.id,
          createdBy: ctx.caller.principal.id,
          sessionId: ctx.caller.session.id,
          keyHash: hashOf(key),
          expiresAt,
        }),
      (created) =>
        callerAudit(ctx, {
          action: 'remote.share_link_create',
          companyId: entry.company_id,
          targetType: 'remote_entry',
          targetId: entry.id,
          details: { share_link: created, expires_at: expiresAt.toISOString() },
        }),
    );
    const link = (await remoteRepository.findShareLink(ctx.db, scopeOf(ctx.caller), id))!;
    return { ...link, url: `${ctx.baseUrl}/rms-connect/${SCREEN[entry.protocol]}?key=${key}` };
  },

  async list(ctx: ServiceContext, entryId: number) {
    await remoteService.entry(ctx, entryId);
    return remoteRepository.listShareLinks(ctx.db, scopeOf(ctx.caller), entryId);
  },

  /** Revokes a link: it opens nothing more, and the sessions open with it end. */
  async revoke(ctx: ServiceContext, id: string) {
    const link = /^[0-9a-f-]{36}$/i.test(id)
      ? await remoteRepository.findShareLink(ctx.db, scopeOf(ctx.caller), id)
      : undefined;
    if (!link) throw notFound('Share link');
    if (link.revoked_at) throw badRequest('The share link is already revoked');
    await audited(
      ctx.db,
      (tx) => remoteRepository.revokeShareLink(tx, id),
      () =>
        callerAudit(ctx, {
          action: 'remote.share_link_revoke',
          companyId: link.company_id,
          targetType: 'remote_entry',
          targetId: link.entry_id,
          details: { share_link: id },
        }),
    );
    for (const session of remoteService.live())
      if (session.shareLinkId === id) session.end('The share link was revoked');
    return { id };
  },

  /** The link a key opens now: none when the key is unknown, revoked, expired or its entry disabled. */
  async opened(db: Db, key: string) {
    if (!KEY_SHAPE.test(key)) return undefined;
    const link = await remoteRepository.shareLinkByKey(db, hashOf(key));
    if (!link || link.revoked_at || link.expires_at.getTime() <= Date.now() || !link.enabled)
      return undefined;
    if (!shareable(link.protocol)) return undefined;
    return { ...link, protocol: link.protocol };
  },

  /** What a key's holder is about to open (the launcher's header), or the refusal in words. */
  async describe(db: Db, key: string) {
    const link = await this.opened(db, key);
    if (!link) throw AppError.of(404, 'NOT_FOUND', SHARE_LINK_INVALID);
    return {
      device_name: link.device_name,
      entry_name: link.entry_name,
      protocol: link.protocol,
      expires_at: link.expires_at,
    };
  },

  used: (db: Db, id: string) => remoteRepository.shareLinkUsed(db, id),
};
