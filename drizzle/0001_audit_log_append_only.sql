-- The audit log is append-only: refuse UPDATE and DELETE at the database, whatever the caller.
CREATE OR REPLACE FUNCTION mnemoscope_audit_log_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION mnemoscope_audit_log_append_only();
