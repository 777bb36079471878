-- Comments by visitors of a public board's portal (no account): the comment's author_id is
-- null and author_name is the name they gave. The e-mail they may leave stays with the team
-- (no public read shows it); the salted hash of their address limits how many comments one
-- address posts to a board per hour (the Board actor counts them before it writes).
ALTER TABLE feedback_comments ADD COLUMN author_email text;
ALTER TABLE feedback_comments ADD COLUMN ip_hash text;
CREATE INDEX feedback_comments_ip ON feedback_comments (board_id, ip_hash, created_at) WHERE ip_hash IS NOT NULL;
