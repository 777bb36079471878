-- Workspace migrations run as background jobs: queued by the request, claimed by one node at a time
-- (lease_until), resumed after a restart from the steps already recorded (each names its exported item).
-- The target credential is kept (AES-256-GCM, like connection tokens) only while the job is not finished.
ALTER TABLE hub_workspace_migrations ADD COLUMN credential_ciphertext text;
ALTER TABLE hub_workspace_migrations ADD COLUMN total integer NOT NULL DEFAULT 0;
ALTER TABLE hub_workspace_migrations ADD COLUMN lease_until timestamptz;
ALTER TABLE hub_workspace_migrations ADD COLUMN runs integer NOT NULL DEFAULT 0;
ALTER TABLE hub_workspace_migrations ADD COLUMN started_at timestamptz;
CREATE INDEX hub_workspace_migrations_unfinished ON hub_workspace_migrations (created_at) WHERE status IN ('queued', 'running');
