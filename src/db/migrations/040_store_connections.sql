-- Store connections: an account's credentials for App Store Connect or Google Play.
--
-- secret holds the private key (.p8) or the whole service-account JSON, sealed by src/secrets/
-- (AES-256-GCM, a data key per row wrapped by SECRETS_KEY, the row id bound as authenticated
-- data): a dump of this table holds no key in clear. The columns beside it are the public parts
-- a list may show.
CREATE TABLE store_connections (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  store text NOT NULL CHECK (store IN ('app-store', 'google-play')),
  issuer_id text,
  key_id text,
  client_email text,
  secret text NOT NULL CHECK (secret LIKE 'v1.%'),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  CHECK ((store = 'app-store' AND issuer_id IS NOT NULL AND key_id IS NOT NULL) OR (store = 'google-play' AND client_email IS NOT NULL))
);
CREATE INDEX store_connections_account ON store_connections (account_id, created_at);

-- Publications: a succeeded job's pictures put on a store page, planned then applied.
-- The plan's items are rows of publication_items, each one's progress (reserved id, parts
-- uploaded, committed, processed) written before the next call to the store, which is what makes
-- a resumed run skip what already happened instead of doing it twice.
CREATE TABLE publications (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  job_id text NOT NULL REFERENCES jobs (id),
  -- A deleted connection fails the publications still running on it.
  connection_id text REFERENCES store_connections (id) ON DELETE SET NULL,
  store text NOT NULL CHECK (store IN ('app-store', 'google-play')),
  store_app_id text NOT NULL,
  -- Set locale -> store locale.
  locales jsonb NOT NULL,
  status text NOT NULL DEFAULT 'planning'
    CHECK (status IN ('planning', 'awaiting_approval', 'applying', 'verifying', 'published', 'failed')),
  -- What the store held when planned, to re-plan when it changed before approval.
  store_fingerprint text,
  -- Google Play: the open edit this publication works in (one per package at a time).
  edit_id text,
  planned_at timestamptz,
  approved_at timestamptz,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX publications_account ON publications (account_id, created_at);

CREATE TABLE publication_items (
  publication_id text NOT NULL REFERENCES publications (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  locale text NOT NULL,
  -- App Store screenshotDisplayType, or Play image type.
  slot text NOT NULL,
  action text NOT NULL CHECK (action IN ('keep', 'upload', 'delete', 'reorder')),
  -- 1-based position in the slot after the publication; null for a delete.
  position integer,
  -- The job file uploaded (upload) or matched (keep/reorder).
  file_name text,
  sha256 text,
  md5 text,
  bytes integer,
  -- The store's id of the image: reserved for an upload, existing for keep/reorder/delete.
  remote_id text,
  state text NOT NULL DEFAULT 'pending'
    CHECK (state IN ('pending', 'reserved', 'uploaded', 'committed', 'done', 'failed')),
  -- App Store: the reservation's uploadOperations, so a resumed run uploads the remaining parts.
  upload jsonb,
  parts_done integer NOT NULL DEFAULT 0,
  attempts integer NOT NULL DEFAULT 0,
  error jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (publication_id, seq)
);
