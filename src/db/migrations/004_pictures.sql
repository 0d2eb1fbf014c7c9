-- Pictures: the user's uploaded screens, the files a rendered job produced, and server secrets.
--
-- screens: the bytes live in the object store under object_key; a deleted screen keeps its row
-- (deleted_at) and its object, so that a set queued before the delete still renders what it was
-- asked for. Only live screens are listed, counted against the limit or accepted in a request.
CREATE TABLE screens (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  app_id text NOT NULL REFERENCES apps (id),
  family text NOT NULL CHECK (family IN ('iphone', 'ipad', 'android-phone', 'android-tablet')),
  content_type text NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  bytes integer NOT NULL CHECK (bytes > 0),
  sha256 text NOT NULL,
  object_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX screens_live_by_app ON screens (app_id, id) WHERE deleted_at IS NULL;

-- job_files: what a succeeded job rendered, apart from its plan (jobs.result). Written in the
-- transaction that completes the job, so a job is never seen succeeded without its files.
-- name is the file's public name: 'slides/1.png', 'locales/de-DE/slides/1.png', 'archive.zip'.
CREATE TABLE job_files (
  job_id text NOT NULL REFERENCES jobs (id),
  name text NOT NULL,
  object_key text NOT NULL,
  content_type text NOT NULL,
  bytes bigint NOT NULL CHECK (bytes > 0),
  sha256 text NOT NULL,
  width integer,
  height integer,
  PRIMARY KEY (job_id, name)
);

-- Secrets the service makes for itself when the operator sets none (URL_SIGNING_SECRET), shared
-- by every process on the database.
CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
