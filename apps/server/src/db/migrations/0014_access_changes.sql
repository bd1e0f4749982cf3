-- Access changes are announced by the database itself: whatever writes them (the API, a
-- shell command, SQL typed by an operator), every server on this database hears
-- `fg_access` at commit and re-checks the open sockets concerned (realtime/access-watch.ts).
-- Payloads: 's:{session id}', 'u:{user id}', 'r:{role id}', 'c:{company id}', 'd:{device id}'.
-- Only changes that alter what someone may reach fire: telemetry's device updates and a
-- session's activity and token rotation stay silent.
CREATE FUNCTION fg_access_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fg_access', 's:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_access_update AFTER UPDATE OF revoked_at, expires_at ON sessions
  FOR EACH ROW WHEN (NEW.revoked_at IS DISTINCT FROM OLD.revoked_at OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION fg_access_session();
--> statement-breakpoint
CREATE TRIGGER sessions_access_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION fg_access_session();
--> statement-breakpoint
CREATE FUNCTION fg_access_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fg_access', 'u:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_access_update
  AFTER UPDATE OF company_id, role_id, email_verified_at, mfa_type, password_hash ON users
  FOR EACH ROW WHEN (
    NEW.company_id IS DISTINCT FROM OLD.company_id
    OR NEW.role_id IS DISTINCT FROM OLD.role_id
    OR NEW.email_verified_at IS DISTINCT FROM OLD.email_verified_at
    OR NEW.mfa_type IS DISTINCT FROM OLD.mfa_type
    OR NEW.password_hash IS DISTINCT FROM OLD.password_hash
  )
  EXECUTE FUNCTION fg_access_user();
--> statement-breakpoint
CREATE TRIGGER users_access_delete AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION fg_access_user();
--> statement-breakpoint
CREATE FUNCTION fg_access_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Identical payloads within one transaction are delivered once.
  PERFORM pg_notify('fg_access', 'r:' || coalesce(NEW.role_id, OLD.role_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER role_permissions_access AFTER INSERT OR UPDATE OR DELETE ON role_permissions
  FOR EACH ROW EXECUTE FUNCTION fg_access_role();
--> statement-breakpoint
CREATE FUNCTION fg_access_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fg_access', 'c:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_access_update AFTER UPDATE OF path, mfa_mandatory ON companies
  FOR EACH ROW WHEN (NEW.path IS DISTINCT FROM OLD.path OR NEW.mfa_mandatory IS DISTINCT FROM OLD.mfa_mandatory)
  EXECUTE FUNCTION fg_access_company();
--> statement-breakpoint
CREATE TRIGGER companies_access_delete AFTER DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION fg_access_company();
--> statement-breakpoint
CREATE FUNCTION fg_access_device() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fg_access', 'd:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_access_update AFTER UPDATE OF company_id ON devices
  FOR EACH ROW WHEN (NEW.company_id IS DISTINCT FROM OLD.company_id)
  EXECUTE FUNCTION fg_access_device();
--> statement-breakpoint
CREATE TRIGGER devices_access_delete AFTER DELETE ON devices
  FOR EACH ROW EXECUTE FUNCTION fg_access_device();
