-- Fair claiming (src/queue/claim.ts) reads, per account, its oldest due queued jobs and how many of
-- its jobs are running: both from small partial indexes instead of the account's whole history.
CREATE INDEX jobs_queued_by_account ON jobs (account_id, created_at) WHERE status = 'queued';
CREATE INDEX jobs_running_by_account ON jobs (account_id) WHERE status = 'running';
