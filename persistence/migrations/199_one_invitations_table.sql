-- One invitations aggregate: the hub's invitations are pm's (actors/pm/Invitations.ts),
-- so its rows move into pm_workspace_invitations. The token hashes move as they are,
-- so mailed hub links keep working; send_count counted the first mail, resend_count does not.
INSERT INTO pm_workspace_invitations
  (id, workspace_id, email, role, guest, message, token_hash, status, invited_by, created_at, expires_at,
   resend_count, last_sent_at, responded_at, responded_by)
SELECT id::text, workspace_id::text, email, role, false, '', token_hash, status, invited_by::text, created_at, expires_at,
       greatest(send_count - 1, 0), last_sent_at, responded_at, accepted_by::text
FROM hub_workspace_invitations
ON CONFLICT DO NOTHING;

DROP TABLE hub_workspace_invitations;
