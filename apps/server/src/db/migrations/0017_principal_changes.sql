-- Every server keeps the callers of recent requests in memory (modules/auth/caller-cache.ts)
-- and must forget one the moment anything it holds changes, whoever wrote the change. The
-- access triggers of 0014 announce only what alters reach; these announce, on their own
-- channel `fg_principal`, every other change of what a caller carries: a session's row
-- (token rotation, password confirmation), the user's profile and flags, the company's
-- name and payment flag, the role's name and title, and impersonation grants. A session's
-- activity (last_seen_at) and a user's last sign-in stay silent: they change nothing cached.
-- Payloads as on `fg_access`: 's:{session id}', 'u:{user id}', 'r:{role id}', 'c:{company id}'.
CREATE FUNCTION fg_principal_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR (to_jsonb(NEW) - 'last_seen_at') IS DISTINCT FROM (to_jsonb(OLD) - 'last_seen_at') THEN
    PERFORM pg_notify('fg_principal', 's:' || OLD.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_principal AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION fg_principal_session();
--> statement-breakpoint
CREATE FUNCTION fg_principal_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
    OR (to_jsonb(NEW) - 'last_login_at' - 'updated_at') IS DISTINCT FROM (to_jsonb(OLD) - 'last_login_at' - 'updated_at') THEN
    PERFORM pg_notify('fg_principal', 'u:' || OLD.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_principal AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION fg_principal_user();
--> statement-breakpoint
CREATE FUNCTION fg_principal_company() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
    OR (to_jsonb(NEW) - 'updated_at') IS DISTINCT FROM (to_jsonb(OLD) - 'updated_at') THEN
    PERFORM pg_notify('fg_principal', 'c:' || OLD.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_principal AFTER UPDATE OR DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION fg_principal_company();
--> statement-breakpoint
CREATE FUNCTION fg_principal_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fg_principal', 'r:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER roles_principal AFTER UPDATE OR DELETE ON roles
  FOR EACH ROW EXECUTE FUNCTION fg_principal_role();
--> statement-breakpoint
CREATE FUNCTION fg_principal_grant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fg_principal', 'u:' || coalesce(NEW.user_id, OLD.user_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER impersonation_grants_principal AFTER INSERT OR UPDATE OR DELETE ON impersonation_grants
  FOR EACH ROW EXECUTE FUNCTION fg_principal_grant();
