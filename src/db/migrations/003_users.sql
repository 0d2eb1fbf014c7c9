-- People who sign in to the dashboard: users, their sessions, and the failed sign-in counters.

CREATE TABLE users (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  -- Stored as typed (trimmed); compared lower-cased, so one address cannot sign up twice.
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email));
CREATE INDEX users_account ON users (account_id);

-- Only the SHA-256 digest of a session token is stored: a copy of this table signs no one in.
-- csrf_token is the synchronizer token of the session's forms; it dies with the session.
CREATE TABLE sessions (
  token_hash bytea PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- Failed sign-ins per subject ('email:<lower email>' or 'addr:<ip>') in a fixed window.
CREATE TABLE sign_in_failures (
  subject text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL CHECK (failures >= 0)
);
CREATE INDEX sign_in_failures_window ON sign_in_failures (window_start);
