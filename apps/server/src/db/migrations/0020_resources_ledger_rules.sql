-- The ledger's rules that drizzle cannot say (docs/decisions.md, 'Resources').
--
-- Every entry is balanced: its postings sum to zero. Checked at commit by a deferred
-- constraint trigger, so a transaction may write an entry's postings one by one.
CREATE FUNCTION fg_ledger_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  SELECT coalesce(sum(amount), 0) INTO total FROM ledger_postings WHERE entry_id = NEW.entry_id;
  IF total <> 0 THEN
    RAISE EXCEPTION 'ledger entry % is not balanced (postings sum to %)', NEW.entry_id, total
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balanced AFTER INSERT OR UPDATE ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fg_ledger_balanced();
--> statement-breakpoint
-- The issuer: where pools and trial data come from and spent resources go. One account per
-- resource (null: company data in bytes), created as needed; this one exists from the start.
INSERT INTO ledger_accounts (kind, company_id, code_id, resource_type_id, balance) VALUES ('issuer', NULL, NULL, NULL, 0);
--> statement-breakpoint
-- A new company starts with 5 GB of trial data (docs/decisions.md, 'Resources'), whatever
-- creates it (the API, the demo, a shell), so the grant lives with the table.
CREATE FUNCTION fg_grant_trial_data(company integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  trial bigint := 5::bigint * 1024 * 1024 * 1024;
  issuer integer;
  account integer;
  entry integer;
BEGIN
  SELECT id INTO issuer FROM ledger_accounts
    WHERE kind = 'issuer' AND resource_type_id IS NULL;
  INSERT INTO ledger_accounts (kind, company_id, resource_type_id, balance)
    VALUES ('company', company, NULL, 0)
    ON CONFLICT DO NOTHING;
  SELECT id INTO account FROM ledger_accounts
    WHERE kind = 'company' AND company_id = company AND resource_type_id IS NULL;
  INSERT INTO ledger_entries (action, amount, data_bytes, target_company_id)
    VALUES ('trial_data', trial, trial, company) RETURNING id INTO entry;
  INSERT INTO ledger_postings (entry_id, account_id, amount) VALUES (entry, issuer, -trial), (entry, account, trial);
  UPDATE ledger_accounts SET balance = balance - trial WHERE id = issuer;
  UPDATE ledger_accounts SET balance = balance + trial WHERE id = account;
END $$;
--> statement-breakpoint
CREATE FUNCTION fg_company_trial_data() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM fg_grant_trial_data(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER companies_trial_data AFTER INSERT ON companies
  FOR EACH ROW EXECUTE FUNCTION fg_company_trial_data();
--> statement-breakpoint
SELECT fg_grant_trial_data(id) FROM companies ORDER BY id;
--> statement-breakpoint
-- A device gets a trial service once per serial, however it is registered: 30 days, two
-- years for the TAP series (docs/decisions.md, 'Resources'). A serial that had its trial
-- comes back with its service already ended. A service given explicitly is kept.
CREATE FUNCTION fg_device_trial() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.service_until IS NOT NULL THEN
    RETURN NEW;
  END IF;
  INSERT INTO device_trials (serial) VALUES (NEW.serial) ON CONFLICT DO NOTHING;
  IF FOUND THEN
    NEW.service_until := now() + CASE WHEN upper(coalesce(NEW.model, '')) LIKE 'TAP%' THEN interval '2 years' ELSE interval '30 days' END;
  ELSE
    NEW.service_until := now();
    NEW.credit_active := false;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER devices_trial BEFORE INSERT ON devices
  FOR EACH ROW EXECUTE FUNCTION fg_device_trial();
--> statement-breakpoint
-- Devices registered before services existed start their trial now.
INSERT INTO device_trials (serial) SELECT serial FROM devices ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE devices SET service_until = now() + CASE WHEN upper(coalesce(model, '')) LIKE 'TAP%' THEN interval '2 years' ELSE interval '30 days' END;
--> statement-breakpoint
CREATE INDEX devices_service_until_idx ON devices (service_until) WHERE credit_active;
