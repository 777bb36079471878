-- Hub accounts around the identity (issue 15, part C): outgoing mail, single-use
-- e-mail tokens (password reset, e-mail verification), workspace invitations.

-- Every mail the hub sends, written before it is handed to SMTP (the outbox).
CREATE TABLE hub_mail_outbox (
  id uuid PRIMARY KEY,
  recipient text NOT NULL,
  user_id uuid,
  kind text NOT NULL,
  subject text NOT NULL,
  body_text text NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  message_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX hub_mail_outbox_recipient ON hub_mail_outbox (recipient, created_at DESC);
CREATE INDEX hub_mail_outbox_pending ON hub_mail_outbox (created_at) WHERE status IN ('queued', 'failed');

-- Single-use tokens mailed to a user; only their hashes are kept.
CREATE TABLE hub_email_tokens (
  token_hash text PRIMARY KEY,
  purpose text NOT NULL,
  email text NOT NULL,
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX hub_email_tokens_user ON hub_email_tokens (user_id, purpose);

-- Invitations to a workspace by e-mail; the workspace's HubInvitations actor is their single writer.
CREATE TABLE hub_workspace_invitations (
  id uuid PRIMARY KEY,
  workspace_id uuid NOT NULL,
  email text NOT NULL,
  role text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  invited_by uuid NOT NULL,
  status text NOT NULL,
  send_count integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  last_sent_at timestamptz NOT NULL,
  responded_at timestamptz,
  accepted_by uuid
);
CREATE INDEX hub_workspace_invitations_workspace ON hub_workspace_invitations (workspace_id, created_at);
CREATE UNIQUE INDEX hub_workspace_invitations_pending ON hub_workspace_invitations (workspace_id, email) WHERE status = 'pending';
