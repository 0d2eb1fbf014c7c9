-- Accounts, plans, API keys, credits, apps, jobs and idempotency records.
-- Invariants live in constraints and triggers so that no code path can break them.

CREATE TABLE plans (
  id text PRIMARY KEY,
  name text NOT NULL,
  monthly_credits integer NOT NULL CHECK (monthly_credits >= 0)
);
INSERT INTO plans (id, name, monthly_credits) VALUES
  ('free', 'Free', 50), ('starter', 'Starter', 500), ('pro', 'Pro', 2500), ('scale', 'Scale', 10000);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  plan_id text NOT NULL REFERENCES plans (id),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text,
  prefix text NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id, created_at);

-- One row per account and calendar month (UTC), created on first use with the plan's allowance.
CREATE TABLE credit_periods (
  account_id text NOT NULL REFERENCES accounts (id),
  period_start date NOT NULL,
  allowance integer NOT NULL CHECK (allowance >= 0),
  granted integer NOT NULL DEFAULT 0 CHECK (granted >= 0),
  used integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, period_start),
  CONSTRAINT credits_not_overspent CHECK (used >= 0 AND used <= allowance + granted)
);

CREATE TABLE credit_ledger (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL,
  period_start date NOT NULL,
  kind text NOT NULL CHECK (kind IN ('charge', 'refund', 'grant')),
  amount integer NOT NULL CHECK (amount > 0),
  job_id text,
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (account_id, period_start) REFERENCES credit_periods (account_id, period_start)
);
CREATE INDEX credit_ledger_account ON credit_ledger (account_id, period_start);
-- A job is charged once and refunded at most once, whatever retries happen.
CREATE UNIQUE INDEX credit_ledger_one_charge_per_job ON credit_ledger (job_id) WHERE kind = 'charge';
CREATE UNIQUE INDEX credit_ledger_one_refund_per_job ON credit_ledger (job_id) WHERE kind = 'refund';

CREATE TABLE apps (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  category text NOT NULL,
  artwork_url text NOT NULL,
  ios_listing jsonb,
  android_listing jsonb,
  extra_context text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ios_listing IS NOT NULL OR android_listing IS NOT NULL)
);
CREATE INDEX apps_account ON apps (account_id, created_at);

-- The public Job and the queue entry are one row.
CREATE TABLE jobs (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  app_id text NOT NULL REFERENCES apps (id),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  request jsonb NOT NULL,
  result jsonb,
  error jsonb,
  cost integer NOT NULL CHECK (cost >= 0),
  period_start date NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  -- A retried job waits out its backoff before it can be claimed again.
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  lease_expires_at timestamptz,
  -- When the latest attempt was claimed: pickup latency is started_at - created_at.
  started_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'succeeded') = (result IS NOT NULL)),
  CHECK ((status = 'failed') = (error IS NOT NULL)),
  CHECK ((status = 'running') = (lease_expires_at IS NOT NULL))
);
CREATE INDEX jobs_queued ON jobs (created_at) WHERE status = 'queued';
CREATE INDEX jobs_running_leases ON jobs (lease_expires_at) WHERE status = 'running';
CREATE INDEX jobs_account ON jobs (account_id, created_at);

CREATE TABLE idempotency_keys (
  account_id text NOT NULL REFERENCES accounts (id),
  key text NOT NULL,
  request_hash bytea NOT NULL,
  -- Filled in by the same transaction that claims the key, so never seen empty by another one.
  job_id text REFERENCES jobs (id),
  response jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);

-- succeeded and failed are final: refuse any change to a terminal job, whatever the caller.
CREATE FUNCTION jobs_terminal_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'job % is % and cannot change', OLD.id, OLD.status USING ERRCODE = 'check_violation';
END $$;
CREATE TRIGGER jobs_terminal_guard BEFORE UPDATE ON jobs
  FOR EACH ROW WHEN (OLD.status IN ('succeeded', 'failed')) EXECUTE FUNCTION jobs_terminal_guard();

-- A NOTIFY makes its commit markedly dearer (measured: about a third of a create's database
-- time), so creates do not notify from here: the API process batches their notifications
-- (shotgen_jobs to wake workers, shotgen_credits for the charge) after commit, see NotifyBatcher.
-- Rarer changes (keys, grants, refunds, accounts) notify at commit from these triggers.
-- Every server process caches key lookups and account views; these tell them at commit what changed.
CREATE FUNCTION api_keys_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shotgen_api_keys', encode(NEW.key_hash, 'hex'));
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_notify AFTER UPDATE OF revoked_at, account_id, key_hash ON api_keys
  FOR EACH ROW EXECUTE FUNCTION api_keys_notify();

CREATE FUNCTION credits_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shotgen_credits', NEW.account_id);
  RETURN NULL;
END $$;
CREATE TRIGGER credits_notify AFTER UPDATE ON credit_periods
  FOR EACH ROW WHEN (NEW.granted <> OLD.granted OR NEW.allowance <> OLD.allowance OR NEW.used < OLD.used)
  EXECUTE FUNCTION credits_notify();

CREATE FUNCTION accounts_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shotgen_credits', NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER accounts_notify AFTER UPDATE ON accounts FOR EACH ROW EXECUTE FUNCTION accounts_notify();
